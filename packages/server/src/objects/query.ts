import {
  and,
  asc,
  desc,
  eq,
  gt,
  gte,
  inArray,
  lt,
  lte,
  ne,
  notInArray,
  or,
  sql,
  type SQL,
} from 'drizzle-orm'
import type { PgColumn } from 'drizzle-orm/pg-core'
import { objects } from '../db/schema.ts'
import { badRequest } from '../errors.ts'
import { assertFieldName } from './names.ts'
import { isDateValue, normaliseValue } from './wire.ts'

// Translates the query language of `GET /api/classes/:class` into Drizzle SQL. Field names are
// validated and every name and value is a bound parameter: `data -> $1::text` compares with
// `$2::jsonb`; nothing the client sends is spliced into the SQL text.

export const MAX_LIMIT = 1000
export const DEFAULT_LIMIT = 100
const MAX_CONDITIONS = 50
const MAX_IN = 1000
const RANGE = { $gt: '>', $gte: '>=', $lt: '<', $lte: '<=' } as const
const OPERATORS = new Set([
  '$ne',
  '$in',
  '$nin',
  '$all',
  '$exists',
  '$regex',
  '$options',
  ...Object.keys(RANGE),
])
/** Longest `$regex` pattern: PostgreSQL's engine runs it (not JavaScript's, which can backtrack for ever). */
export const MAX_PATTERN = 500
/** `$or`/`$and` nest at most this deep. */
const MAX_NESTING = 4

const invalid = (message: string) => badRequest(message, 'invalid_query')

/** The JSON value of a document field, or SQL NULL when the field is missing. */
const field = (name: string): SQL => sql`(${objects.data} -> ${name}::text)`
const json = (value: unknown): SQL => sql`${JSON.stringify(value)}::jsonb`

/**
 * A condition that only narrows another by the JSON type of its value, written so the planner
 * does not count it as a filter of its own. PostgreSQL has no statistics on document fields
 * (none from field indexes either: it reads none from partial indexes), so it guesses that an
 * equality on an expression keeps 0.5% of the rows; a type check written as `jsonb_typeof(f) =
 * 'number'` made every range look 200 times more selective than it is, and the planner sorted a
 * whole class through a field index instead of walking the creation index for 20 rows (45 page
 * queries a second instead of hundreds). Inside a CASE it is costed as an unknown truth (one
 * half); the comparison beside it keeps its own estimate, and its index.
 */
const typeGuard = (condition: SQL): SQL => sql`(case when ${condition} then true else false end)`

type Constraint = Record<string, unknown>

function isOperatorObject(value: unknown): value is Constraint {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false
  const keys = Object.keys(value)
  const dollar = keys.filter((k) => k.startsWith('$'))
  if (dollar.length > 0 && dollar.length !== keys.length)
    throw invalid('A constraint cannot mix operators ($...) with plain keys.')
  return dollar.length > 0
}

function listOf(value: unknown, op: string): unknown[] {
  if (!Array.isArray(value)) throw invalid(`${op} takes an array.`)
  if (value.length > MAX_IN) throw invalid(`${op} takes at most ${MAX_IN} values.`)
  return value
}

function dataCondition(name: string, op: string, raw: unknown): SQL {
  const f = field(name)
  const value = normaliseValue(raw, name)
  switch (op) {
    case '$eq':
      return value === null
        ? sql`(${f} is null or ${f} = 'null'::jsonb)`
        : sql`${f} = ${json(value)}`
    case '$ne':
      return value === null
        ? sql`(${f} is not null and ${f} <> 'null'::jsonb)`
        : sql`${f} is distinct from ${json(value)}`
    case '$in':
    case '$nin': {
      const list = listOf(value, op).map((v) => json(v))
      const member = list.length ? sql`${f} in (${sql.join(list, sql`, `)})` : sql`false`
      return op === '$in' ? sql`coalesce(${member}, false)` : sql`not coalesce(${member}, false)`
    }
    case '$all': {
      // Every listed value is an element of the array field.
      const list = listOf(value, op)
      return sql`(${typeGuard(sql`jsonb_typeof(${f}) = 'array'`)} and ${f} @> ${json(list)})`
    }
    case '$exists':
      if (typeof value !== 'boolean') throw invalid('$exists takes true or false.')
      return value ? sql`${f} is not null` : sql`${f} is null`
  }
  const operator = sql.raw(RANGE[op as keyof typeof RANGE])
  // Only values of the same JSON type compare: jsonb orders all numbers below all booleans etc.
  if (typeof value === 'number' || typeof value === 'string') {
    return sql`(${typeGuard(sql`jsonb_typeof(${f}) = ${typeof value}::text`)} and ${f} ${operator} ${json(value)})`
  }
  if (isDateValue(value)) {
    // Stored dates are canonical ISO strings, which sort as text in time order.
    return sql`(${typeGuard(sql`${f} ->> '__type' = 'Date'`)} and (${f} ->> 'iso') ${operator} ${value.iso}::text)`
  }
  throw invalid(`${op} compares numbers, strings or dates.`)
}

function toTime(value: unknown): Date {
  const iso = isDateValue(value) ? value.iso : value
  const time = typeof iso === 'string' ? Date.parse(iso) : Number.NaN
  if (Number.isNaN(time)) throw invalid('createdAt and updatedAt compare with dates.')
  return new Date(time)
}

type Meta = { column: PgColumn; convert: (value: unknown) => unknown }
const META: Record<string, Meta> = {
  objectId: { column: objects.id, convert: (v) => (typeof v === 'string' ? v : badId()) },
  owner: { column: objects.ownerId, convert: (v) => (typeof v === 'string' ? v : badId()) },
  createdAt: { column: objects.createdAt, convert: toTime },
  updatedAt: { column: objects.updatedAt, convert: toTime },
}
function badId(): never {
  throw invalid('objectId and owner compare with strings.')
}

function metaCondition({ column, convert }: Meta, op: string, value: unknown): SQL {
  switch (op) {
    case '$eq':
      return eq(column, convert(value))
    case '$ne':
      return ne(column, convert(value))
    case '$in':
    case '$nin': {
      const list = listOf(value, op).map(convert)
      if (list.length === 0) return op === '$in' ? sql`false` : sql`true`
      return op === '$in' ? inArray(column, list) : notInArray(column, list)
    }
    case '$exists':
      return value === true ? sql`true` : sql`false`
    default: {
      const compare = { $gt: gt, $gte: gte, $lt: lt, $lte: lte }[op as keyof typeof RANGE]
      return compare(column, convert(value))
    }
  }
}

/**
 * `$regex` (with `$options` i, m, s, x) on a string field, run by PostgreSQL's regular
 * expression engine, whose run time does not explode on nested quantifiers like `(a+)+$` the way
 * a backtracking engine's does; the pattern's length is bounded too.
 */
function regexCondition(name: string, pattern: unknown, options: unknown): SQL {
  if (typeof pattern !== 'string') throw invalid('$regex takes a string.')
  if (pattern.length > MAX_PATTERN)
    throw invalid(`$regex patterns are at most ${MAX_PATTERN} characters.`)
  if (options !== undefined && (typeof options !== 'string' || !/^[imsx]{0,4}$/.test(options)))
    throw invalid('$options takes any of the letters i, m, s and x.')
  const flags = (options ?? '') as string
  // PostgreSQL's embedded options: n is the JavaScript `m` (newline-sensitive); `s` is its default.
  const embedded = [...new Set(flags.replace('s', '').replace('m', 'n'))].join('')
  const text = embedded ? `(?${embedded})${pattern}` : pattern
  const f = field(name)
  return sql`(${typeGuard(sql`jsonb_typeof(${f}) = 'string'`)} and (${objects.data} ->> ${name}::text) ~ ${text}::text)`
}

/** Reads the `where` parameter (JSON text) as an object. */
export function parseWhere(text: string | undefined): Record<string, unknown> | undefined {
  if (text === undefined || text === '') return undefined
  let where: unknown
  try {
    where = JSON.parse(text)
  } catch {
    throw invalid('"where" is not valid JSON.')
  }
  return whereObject(where)
}

function whereObject(where: unknown): Record<string, unknown> {
  if (where === null || typeof where !== 'object' || Array.isArray(where))
    throw invalid('"where" must be a JSON object of field constraints.')
  return where as Record<string, unknown>
}

/** `where` as sent in the query string (JSON text) → one SQL condition, or undefined for none. */
export function translateWhere(text: string | undefined): SQL | undefined {
  const where = parseWhere(text)
  return where ? translateWhereObject(where) : undefined
}

/**
 * A `where` object → one SQL condition (undefined for none). Besides field constraints it takes
 * `$or` and `$and`, each a list of `where` objects.
 */
export function translateWhereObject(where: Record<string, unknown>): SQL | undefined {
  const counter = { conditions: 0 }
  const condition = translateLevel(whereObject(where), 1, counter)
  if (counter.conditions > MAX_CONDITIONS)
    throw invalid(`A query takes at most ${MAX_CONDITIONS} conditions.`)
  return condition
}

function translateLevel(
  where: Record<string, unknown>,
  depth: number,
  counter: { conditions: number },
): SQL | undefined {
  const conditions: SQL[] = []
  for (const [name, constraint] of Object.entries(where)) {
    if (name === '$or' || name === '$and') {
      if (depth >= MAX_NESTING) throw invalid(`$or and $and nest at most ${MAX_NESTING} deep.`)
      const parts = listOf(constraint, name).map((part) =>
        translateLevel(whereObject(part), depth + 1, counter),
      )
      if (parts.length === 0) throw invalid(`${name} takes at least one condition.`)
      const all = parts.map((part) => part ?? sql`true`)
      conditions.push(name === '$or' ? sql`(${or(...all)})` : sql`(${and(...all)})`)
      continue
    }
    const meta = Object.hasOwn(META, name) ? META[name] : undefined
    if (!meta) assertFieldName(name)
    const ops: [string, unknown][] = isOperatorObject(constraint)
      ? Object.entries(constraint)
      : [['$eq', constraint]]
    const options = ops.find(([op]) => op === '$options')?.[1]
    for (const [op, value] of ops) {
      if (op !== '$eq' && !OPERATORS.has(op)) throw invalid(`Unknown operator ${op.slice(0, 20)}.`)
      if (op === '$options') {
        if (!ops.some(([other]) => other === '$regex')) throw invalid('$options goes with $regex.')
        continue
      }
      counter.conditions++
      if (op === '$regex') {
        if (meta) throw invalid('$regex applies to document fields.')
        conditions.push(regexCondition(name, value, options))
        continue
      }
      if (meta && op === '$all') throw invalid('$all applies to array fields.')
      conditions.push(meta ? metaCondition(meta, op, value) : dataCondition(name, op, value))
    }
  }
  return conditions.length ? and(...conditions) : undefined
}

/**
 * Whether a page is best read by walking the (class, created_at, id) index in order and stopping
 * once it is full: the order starts with creation time and every condition is on document
 * fields. PostgreSQL keeps no statistics on document fields, so it guesses that such conditions
 * keep almost no rows and would rather scan the class and sort it: 60 ms for a page of a
 * 50,000-object class on PGlite where the walk takes well under one. With a condition on an
 * indexed column (owner, objectId, dates) its own estimates are right, and it is left to choose.
 */
export function walksCreationIndex(
  where: Record<string, unknown> | undefined,
  order: string | undefined,
): boolean {
  const first = order?.split(',').find(Boolean)?.replace(/^-/, '')
  if (first !== undefined && first !== 'createdAt') return false
  const documentOnly = (level: unknown): boolean =>
    level === null ||
    typeof level !== 'object' ||
    Object.entries(level as Record<string, unknown>).every(([name, constraint]) =>
      name === '$or' || name === '$and'
        ? Array.isArray(constraint) && constraint.every(documentOnly)
        : !Object.hasOwn(META, name),
    )
  return where === undefined || documentOnly(where)
}

/** `order=-score,name` → ORDER BY terms, ending with a stable tie-break on creation and id. */
export function translateOrder(text: string | undefined): SQL[] {
  const terms: SQL[] = []
  const keys = text ? text.split(',').filter(Boolean) : []
  if (keys.length > 5) throw invalid('Order by at most 5 fields.')
  for (const key of keys) {
    const descending = key.startsWith('-')
    const name = descending ? key.slice(1) : key
    const meta = Object.hasOwn(META, name) ? META[name] : undefined
    if (!meta) assertFieldName(name)
    const expression = meta ? sql`${meta.column}` : field(name)
    terms.push(descending ? desc(expression) : asc(expression))
  }
  // A stable tie-break. Its direction follows a createdAt key, so that `-createdAt` pages walk
  // the (class, created_at, id) index backwards instead of sorting.
  const created = keys.find((key) => key.replace(/^-/, '') === 'createdAt')
  const direction = created?.startsWith('-') ? desc : asc
  if (!created) terms.push(asc(objects.createdAt))
  terms.push(direction(objects.id))
  return terms
}

/** Parses `limit`/`skip` (decimal digits, already checked by the route schema). */
export function translatePage(limit: string | undefined, skip: string | undefined) {
  const parsedLimit = limit === undefined ? DEFAULT_LIMIT : Number(limit)
  if (parsedLimit > MAX_LIMIT)
    throw badRequest(`"limit" can be at most ${MAX_LIMIT}.`, 'limit_too_large')
  return { limit: parsedLimit, skip: skip === undefined ? 0 : Number(skip) }
}
