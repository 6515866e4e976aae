import type { ExportFormat } from './export-file.ts'
import type { RowRefused } from './rows.ts'

export interface ImportRefusal {
  /** Line of the file the row starts on. */
  line: number
  objectId?: string
  /** The field at fault, when one is. */
  field?: string
  /** What is wrong and what to do. */
  reason: string
}

export interface ImportReport {
  /** The file's name (`Post.json`, `_Join:likes:Post.json`). */
  file: string
  className: string
  format: ExportFormat
  rows: number
  imported: number
  /** Already there (same objectId, or the same relation member): left as they are. */
  unchanged: number
  refused: ImportRefusal[]
  /** File fields, kept as references to where they are: fetch and re-upload them if needed. */
  files: { line: number; objectId: string; field: string; name: string; url: string }[]
  /** What was imported differently from the file, said once per file. */
  notes: string[]
  /**
   * `_User` rows imported with a username and no password hash (a Dashboard export has none):
   * they sign in once they reset their password by mail.
   */
  withoutPassword?: number
  /** Classes anyone signed out may create in or write once imported (compat/open-classes.ts). */
  openClasses?: { className: string; create: boolean; write: boolean }[]
}

/** The report of a file before any of its rows is read. */
export function emptyReport(input: {
  file: string
  className: string
  format: ExportFormat
  rows: readonly unknown[]
}): ImportReport {
  const { file, className, format } = input
  const rows = input.rows.length
  return {
    file,
    className,
    format,
    rows,
    imported: 0,
    unchanged: 0,
    refused: [],
    files: [],
    notes: [],
  }
}

export interface ImportProgress {
  className: string
  done: number
  total: number
}

/** Records a refused row in the report. */
export function refuse(report: ImportReport, line: number, value: unknown, refusal: RowRefused) {
  const objectId = (value as { objectId?: unknown } | undefined)?.objectId
  report.refused.push({
    line,
    ...(typeof objectId === 'string' ? { objectId: objectId.slice(0, 64) } : {}),
    ...(refusal.field ? { field: refusal.field } : {}),
    reason: `${refusal.message}. ${refusal.hint}`,
  })
}
