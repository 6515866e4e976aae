import { badRequest } from '../errors.ts'
import { DISTANCE_UNITS, GEO_OPERATORS, geoTest, type GeoTest } from './geo-condition.ts'
import { assertFieldName } from './names.ts'
import { isDateValue, normaliseValue } from './wire.ts'

// The query language's `where` (`{ score: { $gte: 5 }, $or: [...] }`), read and checked once into
// a typed tree. Everything that acts on a query reads the tree, never the JSON it came from: the
// SQL translator (query.ts), the index planner and the recent-first check (field-indexes.ts).
// A malformed `where` is refused here, with the first problem met in the order it is written.

/** A value in its stored wire form (Dates canonical, see wire.ts), compared as JSON. */
export type Value = null | boolean | number | string | Value[] | { [key: string]: Value }

/** What a range compares with: only values of its own JSON type (or Dates) are in range. */
export type Bound =
  | { type: 'number'; value: number }
  | { type: 'string'; value: string }
  /** Canonical ISO text, which sorts in time order. */
  | { type: 'date'; iso: string }
  /** Decimal text compared as an exact number with an integer field (integer-fields.ts). */
  | { type: 'numeric'; value: string }

export type RangeOperator = '$gt' | '$gte' | '$lt' | '$lte'

/** One operator on a document field. */
export type FieldTest =
  | { op: '$eq' | '$ne'; value: Value }
  /** `$containedBy`: an array field whose every element is one of `values`. */
  | { op: '$in' | '$nin' | '$all' | '$containedBy'; values: Value[] }
  | { op: '$exists'; exists: boolean }
  | { op: RangeOperator; bound: Bound }
  /** `options`: any of the letters i, m, s and x (JavaScript's meanings). */
  | { op: '$regex'; pattern: string; options: string }
  /** `$text: {$search: {$term, $language, $caseSensitive}}`: PostgreSQL's full text search. */
  | {
      op: '$text'
      term: string
      language: string
      caseSensitive: boolean
      /** Whether `é` and `e` differ (false, Parse's default: both sides read without accents). */
      diacriticSensitive: boolean
    }
  /** Geo operators (see geo-condition.ts). */
  | GeoTest

/** One operator on a column of the object envelope. */
export type ColumnTest<T> =
  | { op: '$eq' | '$ne' | RangeOperator; value: T }
  | { op: '$in' | '$nin'; values: T[] }
  | { op: '$exists'; exists: boolean }

/** One part of a `where`: an operator on one field, or an `$or`/`$and`/`$nor` of nested `where`s. */
export type Term =
  | { kind: 'field'; field: string; test: FieldTest }
  | { kind: 'id'; field: 'objectId' | 'owner'; test: ColumnTest<string> }
  | { kind: 'time'; field: 'createdAt' | 'updatedAt'; test: ColumnTest<Date> }
  /** `nor`: none of them holds. */
  | { kind: 'or' | 'and' | 'nor'; of: Condition[] }
  /** `$relatedTo`: the objects held in relation `key` of one object. */
  | { kind: 'related'; className: string; objectId: string; key: string }

/** A `where`: all of its terms hold, in the order written; with none, every object matches. */
export interface Condition {
  terms: Term[]
}

/** A term on one field (document or envelope), as opposed to an `$or`/`$and`. */
export type FieldTerm = Exclude<Term, { kind: 'or' | 'and' | 'nor' | 'related' }>

/**
 * Operators (besides `$options`, which goes with `$regex`, and the distances that go with
 * `$nearSphere`) a query counts at most this many of.
 */
export const MAX_CONDITIONS = 50
/** Longest list an `$in`, `$nin`, `$all`, `$containedBy`, `$or`, `$and` or `$nor` takes. */
export const MAX_IN = 1000
/** Longest `$regex` pattern: PostgreSQL's engine runs it (not JavaScript's, which can backtrack for ever). */
export const MAX_PATTERN = 500
/** `$or`/`$and`/`$nor` nest at most this deep. */
const MAX_NESTING = 4

const OPERATORS = new Set([
  '$eq',
  '$ne',
  '$in',
  '$nin',
  '$all',
  '$containedBy',
  '$exists',
  '$regex',
  '$options',
  '$gt',
  '$gte',
  '$lt',
  '$lte',
  '$text',
  ...GEO_OPERATORS,
  ...Object.keys(DISTANCE_UNITS),
])
const ID_FIELDS = new Set(['objectId', 'owner'])
const TIME_FIELDS = new Set(['createdAt', 'updatedAt'])

const invalid = (message: string) => badRequest(message, 'invalid_query')

/** The `where` query parameter (JSON text); undefined when absent or empty. */
export function parseWhereText(text: string | undefined): Condition | undefined {
  if (text === undefined || text === '') return undefined
  let where: unknown
  try {
    where = JSON.parse(text)
  } catch {
    throw invalid('"where" is not valid JSON.')
  }
  return parseWhere(where)
}

/** A `where` object (as sent in a JSON body or message) → its condition tree; 400 when malformed. */
export function parseWhere(input: unknown): Condition {
  const counter = { conditions: 0 }
  const condition = parseLevel(input, 1, counter)
  if (counter.conditions > MAX_CONDITIONS)
    throw invalid(`A query takes at most ${MAX_CONDITIONS} conditions.`)
  return condition
}

/** Every field term, at any `$or`/`$and`/`$nor` depth, in the order written. */
export function* fieldTerms(condition: Condition | undefined): Generator<FieldTerm> {
  for (const term of condition?.terms ?? []) {
    if ('of' in term) {
      for (const part of term.of) yield* fieldTerms(part)
    } else if (term.kind !== 'related') yield term
  }
}

function parseLevel(where: unknown, depth: number, counter: { conditions: number }): Condition {
  if (where === null || typeof where !== 'object' || Array.isArray(where))
    throw invalid('"where" must be a JSON object of field constraints.')
  const terms: Term[] = []
  for (const [name, constraint] of Object.entries(where)) {
    if (name === '$or' || name === '$and' || name === '$nor') {
      if (depth >= MAX_NESTING)
        throw invalid(`$or, $and and $nor nest at most ${MAX_NESTING} deep.`)
      const of = listOf(constraint, name).map((part) => parseLevel(part, depth + 1, counter))
      if (of.length === 0) throw invalid(`${name} takes at least one condition.`)
      terms.push({ kind: name.slice(1) as 'or' | 'and' | 'nor', of })
      continue
    }
    if (name === '$relatedTo') {
      counter.conditions++
      terms.push(relatedTo(constraint))
      continue
    }
    const column = ID_FIELDS.has(name) || TIME_FIELDS.has(name)
    if (!column) assertFieldName(name)
    const ops: [string, unknown][] = isOperatorObject(constraint)
      ? Object.entries(constraint)
      : [['$eq', constraint]]
    const options = ops.find(([op]) => op === '$options')?.[1]
    for (const [op, value] of ops) {
      if (!OPERATORS.has(op)) throw invalid(`Unknown operator ${op.slice(0, 20)}.`)
      if (op === '$options') {
        if (!ops.some(([other]) => other === '$regex')) throw invalid('$options goes with $regex.')
        continue
      }
      if (Object.hasOwn(DISTANCE_UNITS, op)) {
        if (!ops.some(([other]) => other === '$nearSphere'))
          throw invalid(`${op} goes with $nearSphere.`)
        continue
      }
      counter.conditions++
      if (GEO_OPERATORS.has(op)) {
        if (column) throw invalid(`${op} applies to document fields.`)
        terms.push({ kind: 'field', field: name, test: geoTest(op, value, ops) })
        continue
      }
      if (op === '$text') {
        if (column) throw invalid('$text applies to document fields.')
        terms.push({ kind: 'field', field: name, test: textTest(value) })
        continue
      }
      if (op === '$regex') {
        if (column) throw invalid('$regex applies to document fields.')
        terms.push({ kind: 'field', field: name, test: regexTest(value, options) })
        continue
      }
      if (column && (op === '$all' || op === '$containedBy'))
        throw invalid(`${op} applies to array fields.`)
      if (ID_FIELDS.has(name)) {
        const field = name as 'objectId' | 'owner'
        terms.push({ kind: 'id', field, test: columnTest(op, value, toId) })
      } else if (TIME_FIELDS.has(name)) {
        const field = name as 'createdAt' | 'updatedAt'
        terms.push({ kind: 'time', field, test: columnTest(op, value, toTime) })
      } else {
        terms.push({ kind: 'field', field: name, test: fieldTest(name, op, value) })
      }
    }
  }
  return { terms }
}

/**
 * `{ "$relatedTo": { "object": <Pointer>, "key": "<relation field>" } }`. A pointer without an
 * `objectId` (an object not saved yet, such as a clone, as the clients send it) holds no one.
 */
function relatedTo(value: unknown): Term {
  const { object, key } = (value ?? {}) as { object?: unknown; key?: unknown }
  const pointer = (object ?? {}) as { __type?: unknown; className?: unknown; objectId?: unknown }
  const objectId = pointer.objectId ?? ''
  if (
    typeof key !== 'string' ||
    pointer.__type !== 'Pointer' ||
    typeof pointer.className !== 'string' ||
    typeof objectId !== 'string' ||
    objectId.length > 64
  )
    throw invalid('$relatedTo takes { "object": <a Pointer>, "key": "<relation field>" }.')
  assertFieldName(key)
  return { kind: 'related', className: pointer.className, objectId, key }
}

/** Whether a constraint is an operator object (`{ $gt: 1 }`) rather than a value to equal. */
function isOperatorObject(value: unknown): value is Record<string, unknown> {
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

function fieldTest(name: string, op: string, raw: unknown): FieldTest {
  const value = normaliseValue(raw, name) as Value
  switch (op) {
    case '$eq':
    case '$ne':
      return { op, value }
    case '$in':
    case '$nin':
    case '$all':
    case '$containedBy':
      return { op, values: listOf(value, op) as Value[] }
    case '$exists':
      if (typeof value !== 'boolean') throw invalid('$exists takes true or false.')
      return { op, exists: value }
  }
  const range = op as RangeOperator
  if (typeof value === 'number') return { op: range, bound: { type: 'number', value } }
  if (typeof value === 'string') return { op: range, bound: { type: 'string', value } }
  if (isDateValue(value)) return { op: range, bound: { type: 'date', iso: value.iso } }
  throw invalid(`${op} compares numbers, strings or dates.`)
}

/** The text search configurations PostgreSQL ships with (`$language`). */
export const TEXT_LANGUAGES: ReadonlySet<string> = new Set(
  (
    'simple arabic armenian basque catalan danish dutch english finnish french german greek ' +
    'hindi hungarian indonesian irish italian lithuanian nepali norwegian portuguese romanian ' +
    'russian serbian spanish swedish tamil turkish yiddish'
  ).split(' '),
)

/** `{$search: {$term, $language, $caseSensitive, $diacriticSensitive}}`, as Parse takes it. */
function textTest(value: unknown): FieldTest {
  const search = (value as { $search?: unknown } | null)?.$search as
    Record<string, unknown> | undefined
  if (search === null || typeof search !== 'object' || Array.isArray(search))
    throw invalid('$text takes {"$search": {"$term": "..."}}.')
  for (const key of Object.keys(search))
    if (!['$term', '$language', '$caseSensitive', '$diacriticSensitive'].includes(key))
      throw invalid(`$search does not take ${key.slice(0, 30)}.`)
  const {
    $term: term,
    $language: language = 'english',
    $caseSensitive: caseSensitive = false,
  } = search
  if (typeof term !== 'string' || term.length === 0 || term.length > MAX_PATTERN)
    throw invalid(`$search's $term is text of 1 to ${MAX_PATTERN} characters.`)
  const config = language === 'none' ? 'simple' : language
  if (typeof config !== 'string' || !TEXT_LANGUAGES.has(config))
    throw invalid(`$language is one of ${[...TEXT_LANGUAGES].join(', ')} (or none).`)
  if (typeof caseSensitive !== 'boolean') throw invalid('$caseSensitive is true or false.')
  const { $diacriticSensitive: diacriticSensitive = false } = search
  if (typeof diacriticSensitive !== 'boolean')
    throw invalid('$diacriticSensitive is true or false.')
  return { op: '$text', term, language: config, caseSensitive, diacriticSensitive }
}

/**
 * `$regex` with its `$options`. The pattern's length is bounded; PostgreSQL's engine runs it,
 * whose run time does not explode on nested quantifiers like `(a+)+$`.
 */
function regexTest(pattern: unknown, options: unknown): FieldTest {
  if (typeof pattern !== 'string') throw invalid('$regex takes a string.')
  if (pattern.length > MAX_PATTERN)
    throw invalid(`$regex patterns are at most ${MAX_PATTERN} characters.`)
  if (options !== undefined && (typeof options !== 'string' || !/^[imsx]{0,4}$/.test(options)))
    throw invalid('$options takes any of the letters i, m, s and x.')
  return { op: '$regex', pattern: unquote(pattern), options: (options ?? '') as string }
}

/**
 * `pattern` with each quoted part (`\Q…\E`, or `\Q` to the end) written as escaped characters:
 * the clients quote the text of `startsWith`, `endsWith` and `contains` that way, which
 * PostgreSQL's regular expressions do not know. Every ASCII character that is not a letter or a
 * digit is escaped (a backslash before any of them means the character itself, whitespace too
 * under the `x` option); letters, digits and other characters stand for themselves.
 */
export function unquote(pattern: string): string {
  let out = ''
  let i = 0
  while (i < pattern.length) {
    const char = pattern[i]!
    if (char !== '\\') {
      out += char
      i++
    } else if (pattern[i + 1] !== 'Q') {
      // An escape of the pattern's own (`\\` included), kept as written.
      out += pattern.slice(i, i + 2)
      i += 2
    } else {
      const end = pattern.indexOf('\\E', i + 2)
      for (const c of pattern.slice(i + 2, end === -1 ? undefined : end)) out += literalChar(c)
      i = end === -1 ? pattern.length : end + 2
    }
  }
  return out
}

/** One character of quoted text, as PostgreSQL's regular expressions read it literally. */
function literalChar(c: string): string {
  const code = c.charCodeAt(0)
  if (code >= 0x80 || /[A-Za-z0-9]/.test(c)) return c
  // Control characters as `\uXXXX` (four digits: `\x` would read on into following hex digits).
  if (code < 0x20 || code === 0x7f) return `\\u${code.toString(16).padStart(4, '0')}`
  return `\\${c}`
}

function columnTest<T>(op: string, value: unknown, convert: (value: unknown) => T): ColumnTest<T> {
  switch (op) {
    case '$in':
    case '$nin':
      return { op, values: listOf(value, op).map(convert) }
    case '$exists':
      // The envelope's columns always exist; any value but true asks for none.
      return { op, exists: value === true }
    default:
      return { op: op as '$eq' | '$ne' | RangeOperator, value: convert(value) }
  }
}

function toId(value: unknown): string {
  if (typeof value !== 'string') throw invalid('objectId and owner compare with strings.')
  return value
}

function toTime(value: unknown): Date {
  const iso = isDateValue(value) ? value.iso : value
  const time = typeof iso === 'string' ? Date.parse(iso) : Number.NaN
  if (Number.isNaN(time)) throw invalid('createdAt and updatedAt compare with dates.')
  return new Date(time)
}
