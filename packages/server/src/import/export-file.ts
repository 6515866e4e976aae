// Reads a class exported by Parse Dashboard or the Moralis v1 dashboard: `{"results":[…]}` (or a
// bare array) of row objects. Each row is parsed on its own, with the line it starts on, so a
// malformed row is reported by line and the others are still imported.

export interface ExportRow {
  /** Line of the file the row starts on (1-based). */
  line: number
  value?: unknown
  /** Why the row could not be read. */
  error?: string
}

/** The rows of an export, or throws when the file is not an export at all. */
export function exportRows(text: string): ExportRow[] {
  const start = arrayStart(text)
  const rows: ExportRow[] = []
  let line = lineAt(text, 0, 1, start)
  let at = start + 1
  for (;;) {
    const next = skipSpace(text, at)
    line = lineAt(text, at, line, next)
    at = next
    if (at >= text.length) throw new ImportFileError('The file ends inside "results".')
    if (text[at] === ']') return rows
    if (text[at] === ',') {
      at += 1
      continue
    }
    const end = valueEnd(text, at)
    const slice = text.slice(at, end)
    try {
      rows.push({ line, value: JSON.parse(slice) })
    } catch (error) {
      rows.push({ line, error: `not valid JSON (${(error as Error).message.slice(0, 120)})` })
    }
    line = lineAt(text, at, line, end)
    at = end
  }
}

export class ImportFileError extends Error {
  override name = 'ImportFileError'
}

function arrayStart(text: string): number {
  const first = skipSpace(text, text.charCodeAt(0) === 0xfeff ? 1 : 0)
  if (text[first] === '[') return first
  const results = /^\{\s*"results"\s*:\s*\[/.exec(text.slice(first))
  if (!results)
    throw new ImportFileError(
      'This is not a class export: it should be {"results": [ … ]} as Parse Dashboard and Moralis export a class.',
    )
  return first + results[0].length - 1
}

function skipSpace(text: string, at: number): number {
  while (at < text.length && /\s/.test(text[at]!)) at += 1
  return at
}

function lineAt(text: string, from: number, line: number, to: number): number {
  for (let i = from; i < to; i++) if (text.charCodeAt(i) === 10) line += 1
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
  let inString = false
  for (let i = at; i < text.length; i++) {
    const c = text[i]!
    if (inString) {
      if (c === '\\') i += 1
      else if (c === '"') inString = false
      else if (c === '\n') inString = false // a string never spans lines in JSON
      continue
    }
    if (c === '"') inString = true
    else if (c === '{' || c === '[') depth += 1
    else if (c === '}' || c === ']') {
      if (depth === 0) return i
      depth -= 1
      if (depth === 0) return i + 1
    } else if (c === ',' && depth === 0) return i
  }
  return text.length
}
