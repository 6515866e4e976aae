import { syntaxError } from './json-error.ts'

// Reads one file of a Parse export. Two shapes exist:
// - Parse Dashboard (5.1 and later), "Export all rows" as JSON: a bare array of rows;
// - the legacy Parse.com export: `{"results": [ … ]}`, which is also the shape of its
//   `_Join:<field>:<Class>.json` relation files.
// Each row is parsed on its own, with the line its text starts on, so a malformed row (a `NaN`,
// a stray comma) is reported by line and field and the others are still imported. A file that is
// no export at all (not JSON, an HTML error page, cut short) is refused whole.

export type ExportFormat = 'dashboard' | 'legacy'

export interface ExportRow {
  /** Line of the file the row starts on (1-based). */
  line: number
  value?: unknown
  /** Why the row could not be read as JSON, and the field it was in when known. */
  error?: { message: string; field?: string; objectId?: string }
}

export interface ExportFile {
  format: ExportFormat
  rows: ExportRow[]
}

export class ImportFileError extends Error {
  override name = 'ImportFileError'
  constructor(
    message: string,
    /** Line of the file where reading stopped, when known. */
    readonly line?: number,
    /** True for a file left out on purpose (a class the import does not take), not a broken one. */
    readonly skipped = false,
  ) {
    super(message)
  }
}

/** The rows of an export file, or throws `ImportFileError` when it is not an export at all. */
export function readExportFile(text: string): ExportFile {
  const { at: start, format } = arrayStart(text)
  const rows: ExportRow[] = []
  let line = lineAt(text, 0, 1, start)
  let at = start + 1
  for (;;) {
    const next = skipSpace(text, at)
    line = lineAt(text, at, line, next)
    at = next
    if (at >= text.length)
      throw new ImportFileError(
        `The file ends before the list of rows is closed: it was cut short. Export the class again.`,
        line,
      )
    if (text[at] === ']') {
      checkEnd(text, at + 1, format, line)
      return { format, rows }
    }
    if (text[at] === ',') {
      at += 1
      continue
    }
    const end = valueEnd(text, at)
    const slice = text.slice(at, end)
    try {
      rows.push({ line, value: JSON.parse(slice) })
    } catch (error) {
      const found = syntaxError(slice)
      const objectId = /"objectId"\s*:\s*"([A-Za-z0-9_-]{1,64})"/.exec(slice)?.[1]
      rows.push({
        line,
        error: {
          message: found
            ? `${found.message} (line ${lineAt(slice, 0, line, found.offset)})`
            : `not valid JSON (${(error as Error).message.slice(0, 120)})`,
          ...(found?.field ? { field: found.field } : {}),
          ...(objectId ? { objectId } : {}),
        },
      })
    }
    line = lineAt(text, at, line, end)
    at = end
  }
}

const NOT_EXPORT =
  'This is not a class export: Parse Dashboard writes a JSON array of rows ([ { … }, … ]) and the legacy Parse.com export {"results": [ … ]}.'

function arrayStart(text: string): { at: number; format: ExportFormat } {
  const first = skipSpace(text, text.charCodeAt(0) === 0xfeff ? 1 : 0)
  if (text[first] === '[') return { at: first, format: 'dashboard' }
  const results = /^\{\s*"results"\s*:\s*\[/.exec(text.slice(first, first + 64))
  if (!results) {
    const hint =
      first >= text.length
        ? ' The file is empty.'
        : text[first] === '<'
          ? ' It looks like an HTML page (a failed download?).'
          : ''
    throw new ImportFileError(`${NOT_EXPORT}${hint} Export the class again.`, 1)
  }
  return { at: first + results[0].length - 1, format: 'legacy' }
}

/** After the closing `]`: nothing (Dashboard), or the end of `{"results": [...]}` (legacy). */
function checkEnd(text: string, at: number, format: ExportFormat, line: number) {
  let rest = text.slice(at).trim()
  if (format === 'legacy') {
    // Parse.com wrote only `results`; other keys after it are tolerated, the object must close.
    if (!rest.endsWith('}'))
      throw new ImportFileError(
        'The file ends before {"results": [ … ]} is closed: it was cut short. Export the class again.',
        line,
      )
    rest = ''
  }
  if (rest)
    throw new ImportFileError(
      `There is text after the list of rows ("${rest.slice(0, 20)}"): the file is not one export. Export the class again.`,
      line,
    )
}

function skipSpace(text: string, at: number): number {
  for (;;) {
    const c = text.charCodeAt(at)
    if (c === 32 || c === 10 || c === 13 || c === 9) at += 1
    else return at
  }
}

function lineAt(text: string, from: number, line: number, to: number): number {
  for (let i = text.indexOf('\n', from); i !== -1 && i < to; i = text.indexOf('\n', i + 1))
    line += 1
  return line
}

/**
 * Where the value starting at `at` ends: after its closing bracket for objects and arrays
 * (strings skipped), else at the next `,` or `]`. A row whose brackets balance but whose JSON
 * is broken is reported alone; a string is ended at a line break, since JSON strings never span
 * lines, so a stray quote spoils one row and not the rest of the file.
 */
function valueEnd(text: string, at: number): number {
  let depth = 0
  for (let i = at; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c === 34 /* " */) {
      // Jump to the closing quote (or the line's end), skipping escapes.
      for (i += 1; i < text.length; i++) {
        const s = text.charCodeAt(i)
        if (s === 92 /* \ */) i += 1
        else if (s === 34 || s === 10) break
      }
      continue
    }
    if (c === 123 || c === 91) depth += 1
    else if (c === 125 || c === 93) {
      if (depth === 0) return i
      depth -= 1
      if (depth === 0) return i + 1
    } else if (c === 44 && depth === 0) return i
  }
  return text.length
}
