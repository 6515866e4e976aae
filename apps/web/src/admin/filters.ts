import type { FieldType, GridColumn } from './field-types.ts'

// The data browser's filter bar: rows of field, operator and value turned into the `where` the
// object API reads. A row that cannot be read is a problem, never a row dropped: a filter that
// is not what was asked must not show rows as if it were.

export type Operator =
  | 'eq'
  | 'ne'
  | 'lt'
  | 'lte'
  | 'gt'
  | 'gte'
  | 'in'
  | 'nin'
  | 'contains'
  | 'startsWith'
  | 'endsWith'
  | 'regex'
  | 'arrayContains'
  | 'near'
  | 'withinBox'
  | 'exists'
  | 'missing'

/** Each test with the column types it applies to (every type when none are named). */
export const OPERATORS: { op: Operator; label: string; types?: FieldType[] }[] = [
  { op: 'eq', label: 'equals' },
  { op: 'ne', label: 'does not equal' },
  { op: 'lt', label: 'is less than', types: ['number', 'date', 'string'] },
  { op: 'lte', label: 'is at most', types: ['number', 'date', 'string'] },
  { op: 'gt', label: 'is greater than', types: ['number', 'date', 'string'] },
  { op: 'gte', label: 'is at least', types: ['number', 'date', 'string'] },
  { op: 'in', label: 'is one of', types: ['string', 'number', 'pointer'] },
  { op: 'nin', label: 'is none of', types: ['string', 'number', 'pointer'] },
  { op: 'contains', label: 'contains', types: ['string'] },
  { op: 'startsWith', label: 'starts with', types: ['string'] },
  { op: 'endsWith', label: 'ends with', types: ['string'] },
  { op: 'regex', label: 'matches the pattern', types: ['string'] },
  { op: 'arrayContains', label: 'has the item', types: ['array'] },
  { op: 'near', label: 'is within km of', types: ['geopoint'] },
  { op: 'withinBox', label: 'is inside the box', types: ['geopoint'] },
  { op: 'exists', label: 'is set' },
  { op: 'missing', label: 'is not set' },
]

/** What to type for the tests whose value is not one value of the column's type. */
export const VALUE_HINTS: Partial<Record<Operator, string>> = {
  in: 'values, separated by commas',
  nin: 'values, separated by commas',
  regex: 'a regular expression',
  arrayContains: 'an item (JSON, or text)',
  near: 'latitude, longitude, km',
  withinBox: 'south-west lat, lng; north-east lat, lng',
}

export interface FilterRow {
  field: string
  op: Operator
  value: string
  /**
   * The OR group the row is in: rows of one group must all hold, and an object matches when
   * any group holds. Absent means the first group.
   */
  group?: number
}

/** The operators that make sense for a column's type. */
export const operatorsFor = (type: FieldType) =>
  OPERATORS.filter((entry) => !entry.types || entry.types.includes(type))

/** The longest pattern the server runs (longer ones it refuses). */
const MAX_PATTERN = 500

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

/** `latitude, longitude` as a GeoPoint, or undefined when it is not one. */
function geoPointOf(text: string) {
  const parts = text.split(',').map((part) => part.trim())
  if (parts.length !== 2 || parts.some((part) => part === '')) return undefined
  const [latitude, longitude] = parts.map(Number) as [number, number]
  if (!(Math.abs(latitude) <= 90) || !(Math.abs(longitude) <= 180)) return undefined
  return { __type: 'GeoPoint', latitude, longitude }
}

/** The operator and operand of one row that reads its value its own way, or the problem. */
function specialTerms(
  row: FilterRow,
  column: GridColumn,
): { terms: [string, unknown][] } | { problem: string } | undefined {
  const text = row.value.trim()
  switch (row.op) {
    case 'exists':
    case 'missing':
      return { terms: [['$exists', row.op === 'exists']] }
    case 'contains':
    case 'startsWith':
    case 'endsWith': {
      if (row.value === '') return { problem: `Say what ${row.field} ${opLabel(row.op)}.` }
      const escaped = escapeRegex(row.value)
      const pattern =
        row.op === 'contains' ? escaped : row.op === 'startsWith' ? `^${escaped}` : `${escaped}$`
      return { terms: [['$regex', pattern]] }
    }
    case 'regex': {
      if (row.value === '') return { problem: `Give the pattern ${row.field} must match.` }
      if (row.value.length > MAX_PATTERN)
        return { problem: `The pattern is longer than ${MAX_PATTERN} characters: shorten it.` }
      try {
        new RegExp(row.value)
      } catch (error) {
        return { problem: `The pattern is not a regular expression: ${(error as Error).message}` }
      }
      return { terms: [['$regex', row.value]] }
    }
    case 'in':
    case 'nin': {
      const items = row.value.split(',').filter((item) => item.trim() !== '')
      if (!items.length) return { problem: `List the values of ${row.field}, separated by commas.` }
      const values: unknown[] = []
      for (const item of items) {
        const parsed = valueOf(column, column.type === 'string' ? item.trim() : item)
        if ('problem' in parsed) return parsed
        values.push(parsed.value)
      }
      return { terms: [[row.op === 'in' ? '$in' : '$nin', values]] }
    }
    case 'arrayContains': {
      if (text === '') return { problem: `Say which item ${row.field} must have.` }
      let item: unknown = row.value
      try {
        item = JSON.parse(text)
      } catch {
        // Plain text is the item itself, as a string.
      }
      return { terms: [['$all', [item]]] }
    }
    case 'near': {
      const parts = text.split(',').map((part) => part.trim())
      const point = geoPointOf(parts.slice(0, 2).join(','))
      const km = Number(parts[2])
      if (parts.length !== 3 || !point || !(km > 0))
        return {
          problem: `Give a latitude, a longitude and a distance in km, as "48.85, 2.35, 10".`,
        }
      return {
        terms: [
          ['$nearSphere', point],
          ['$maxDistanceInKilometers', km],
        ],
      }
    }
    case 'withinBox': {
      const corners = text.split(';').map(geoPointOf)
      if (corners.length !== 2 || corners.some((corner) => !corner))
        return {
          problem:
            'Give the south-west and the north-east corners, as "48.8, 2.2; 48.9, 2.4" (latitude, longitude).',
        }
      const [southwest, northeast] = corners as { latitude: number; longitude: number }[]
      if (southwest!.latitude > northeast!.latitude)
        return { problem: 'The south-west corner comes first: its latitude is the smaller.' }
      return { terms: [['$within', { $box: [southwest, northeast] }]] }
    }
    default:
      return undefined
  }
}

const opLabel = (op: Operator) => OPERATORS.find((entry) => entry.op === op)!.label

/** The `where` of rows that must all hold, or the first problem with them. */
function groupWhere(
  rows: readonly FilterRow[],
  columns: readonly GridColumn[],
): { where: Record<string, Record<string, unknown>> } | { problem: string } {
  const where: Record<string, Record<string, unknown>> = {}
  for (const row of rows) {
    const column = columns.find((c) => c.key === row.field)
    if (!column) return { problem: `There is no field "${row.field}" in this class.` }
    if (!operatorsFor(column.type).some((entry) => entry.op === row.op))
      return { problem: `${row.field} cannot be tested with "${opLabel(row.op)}".` }
    let terms: [string, unknown][]
    const special = specialTerms(row, column)
    if (special && 'problem' in special) return special
    if (special) terms = special.terms
    else {
      const parsed = valueOf(column, row.value)
      if ('problem' in parsed) return parsed
      terms = [[row.op === 'eq' ? '$eq' : SQL_OPS[row.op]!, parsed.value]]
    }
    const held = (where[row.field] ??= {})
    for (const [op, value] of terms) {
      if (op in held)
        return {
          problem: `Two filters on ${row.field} use the same test: keep one, put them in OR groups, or use the JSON filter.`,
        }
      held[op] = value
    }
  }
  return { where }
}

/**
 * The `where` of the filter rows, or the first problem with them: the rows of a group must all
 * hold, and with several groups an object matches when any of them holds (`$or`).
 */
export function whereOf(
  rows: readonly FilterRow[],
  columns: readonly GridColumn[],
): { where: Record<string, unknown> | undefined } | { problem: string } {
  const groups = new Map<number, FilterRow[]>()
  for (const row of rows) {
    const group = row.group ?? 0
    groups.set(group, [...(groups.get(group) ?? []), row])
  }
  const wheres: Record<string, unknown>[] = []
  for (const group of [...groups.keys()].sort((a, b) => a - b)) {
    const made = groupWhere(groups.get(group)!, columns)
    if ('problem' in made) return made
    wheres.push(made.where)
  }
  if (wheres.length === 0) return { where: undefined }
  return { where: wheres.length === 1 ? wheres[0] : { $or: wheres } }
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
