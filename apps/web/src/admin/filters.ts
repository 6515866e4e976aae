import type { FieldType, GridColumn } from './field-types.ts'

// The data browser's filter bar: rows of field, operator and value turned into the `where` the
// object API reads. A row that cannot be read is a problem, never a row dropped: a filter that
// is not what was asked must not show rows as if it were.

export type Operator =
  'eq' | 'ne' | 'lt' | 'lte' | 'gt' | 'gte' | 'contains' | 'startsWith' | 'exists' | 'missing'

export const OPERATORS: { op: Operator; label: string; types?: FieldType[] }[] = [
  { op: 'eq', label: 'equals' },
  { op: 'ne', label: 'does not equal' },
  { op: 'lt', label: 'is less than', types: ['number', 'date', 'string'] },
  { op: 'lte', label: 'is at most', types: ['number', 'date', 'string'] },
  { op: 'gt', label: 'is greater than', types: ['number', 'date', 'string'] },
  { op: 'gte', label: 'is at least', types: ['number', 'date', 'string'] },
  { op: 'contains', label: 'contains', types: ['string'] },
  { op: 'startsWith', label: 'starts with', types: ['string'] },
  { op: 'exists', label: 'is set' },
  { op: 'missing', label: 'is not set' },
]

export interface FilterRow {
  field: string
  op: Operator
  value: string
}

/** The operators that make sense for a column's type. */
export const operatorsFor = (type: FieldType) =>
  OPERATORS.filter((entry) => !entry.types || entry.types.includes(type))

export const takesValue = (op: Operator) => op !== 'exists' && op !== 'missing'

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

const SQL_OPS: Partial<Record<Operator, string>> = {
  ne: '$ne',
  lt: '$lt',
  lte: '$lte',
  gt: '$gt',
  gte: '$gte',
}

/** A filter value typed for its column, or why it cannot be. */
function valueOf(column: GridColumn, text: string): { value: unknown } | { problem: string } {
  const trimmed = text.trim()
  const name = column.key
  switch (column.type) {
    case 'number': {
      const number = Number(trimmed)
      return trimmed !== '' && Number.isFinite(number)
        ? { value: number }
        : { problem: `"${trimmed}" is not a number, and ${name} holds numbers.` }
    }
    case 'boolean':
      return trimmed === 'true' || trimmed === 'false'
        ? { value: trimmed === 'true' }
        : { problem: `${name} is true or false.` }
    case 'date': {
      const time = Date.parse(trimmed)
      if (Number.isNaN(time))
        return { problem: `"${trimmed}" is not a date, and ${name} holds dates.` }
      const iso = new Date(time).toISOString()
      return { value: column.builtIn ? iso : { __type: 'Date', iso } }
    }
    case 'pointer':
      if (!column.targetClass) return { problem: `${name} does not say which class it points to.` }
      return /^[A-Za-z0-9_-]{1,64}$/.test(trimmed)
        ? { value: { __type: 'Pointer', className: column.targetClass, objectId: trimmed } }
        : { problem: `"${trimmed}" is not an object id.` }
    case 'string':
      return { value: text }
    default:
      try {
        return { value: JSON.parse(trimmed) as unknown }
      } catch {
        return { problem: `${name} holds JSON values: "${trimmed}" is not one.` }
      }
  }
}

/** The `where` of the filter rows (all must hold), or the first problem with them. */
export function whereOf(
  rows: readonly FilterRow[],
  columns: readonly GridColumn[],
): { where: Record<string, unknown> | undefined } | { problem: string } {
  const where: Record<string, Record<string, unknown>> = {}
  for (const row of rows) {
    const column = columns.find((c) => c.key === row.field)
    if (!column) return { problem: `There is no field "${row.field}" in this class.` }
    const terms = (where[row.field] ??= {})
    const put = (op: string, value: unknown) => {
      if (op in terms)
        return `Two filters on ${row.field} use the same test: keep one, or use the JSON filter.`
      terms[op] = value
      return undefined
    }
    let clash: string | undefined
    if (row.op === 'exists' || row.op === 'missing') clash = put('$exists', row.op === 'exists')
    else if (row.op === 'contains' || row.op === 'startsWith') {
      if (row.value === '')
        return {
          problem: `Say what ${row.field} ${row.op === 'contains' ? 'contains' : 'starts with'}.`,
        }
      clash = put(
        '$regex',
        row.op === 'contains' ? escapeRegex(row.value) : `^${escapeRegex(row.value)}`,
      )
    } else {
      const parsed = valueOf(column, row.value)
      if ('problem' in parsed) return parsed
      clash = put(row.op === 'eq' ? '$eq' : SQL_OPS[row.op]!, parsed.value)
    }
    if (clash) return { problem: clash }
  }
  const fields = Object.keys(where)
  return { where: fields.length ? where : undefined }
}

/** A JSON `where` typed by hand: an object, or the problem with it. */
export function parseJsonWhere(
  text: string,
): { where: Record<string, unknown> | undefined } | { problem: string } {
  if (!text.trim()) return { where: undefined }
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    return { problem: `The filter is not valid JSON: ${(error as Error).message}` }
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return { problem: 'The filter is not a JSON object ({ "field": … }).' }
  return { where: value as Record<string, unknown> }
}
