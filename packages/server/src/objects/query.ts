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
import { objectRelations, objects } from '../db/schema.ts'
import { badRequest } from '../errors.ts'
import {
  fieldTerms,
  type ColumnTest,
  type Condition,
  type FieldTest,
  type Term,
} from './condition.ts'
import { geoCondition, nearestFirst } from './geo-query.ts'
import { integerRange, integerValue } from './integer-fields.ts'
import { assertFieldName } from './names.ts'

// Translates the query language of `GET /api/classes/:class` (its `where` parsed and checked in
// condition.ts) into Drizzle SQL. Field names are validated and every name and value is a bound
// parameter: `data -> $1::text` compares with `$2::jsonb`; nothing the client sends is spliced
// into the SQL text.

export const MAX_LIMIT = 1000
export const DEFAULT_LIMIT = 100
const RANGE = { $gt: '>', $gte: '>=', $lt: '<', $lte: '<=' } as const
const COMPARE = { $gt: gt, $gte: gte, $lt: lt, $lte: lte } as const

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

/** The envelope's fields a `where` and an `order` may name, and their columns. */
const COLUMNS: Record<string, PgColumn> = {
  objectId: objects.id,
  owner: objects.ownerId,
  createdAt: objects.createdAt,
  updatedAt: objects.updatedAt,
}

/**
 * A parsed `where` (see condition.ts) → one SQL condition, or undefined when it has no terms.
 * Each operator is one conjunct; `$or` and `$and` are parenthesised groups of nested `where`s.
 */
export function translateWhere(condition: Condition | undefined): SQL | undefined {
  if (condition === undefined) return undefined
  const conditions = condition.terms.map(translateTerm)
  return conditions.length ? and(...conditions) : undefined
}

function translateTerm(term: Term): SQL {
  switch (term.kind) {
    case 'or':
    case 'and':
    case 'nor': {
      const all = term.of.map((part) => translateWhere(part) ?? sql`true`)
      if (term.kind === 'and') return sql`(${and(...all)})`
      // A part that is unknown (a missing field's comparison) does not hold: `$nor` keeps it.
      return term.kind === 'or' ? sql`(${or(...all)})` : sql`(not coalesce(${or(...all)}, false))`
    }
    case 'field':
      return fieldCondition(term.field, term.test)
    case 'id':
    case 'time':
      return columnCondition(COLUMNS[term.field]!, term.test)
    case 'related':
      // The object's own ACL still decides whether it is read (the store's access rule).
      return sql`exists (select 1 from ${objectRelations} r
        where r.class_name = ${term.className} and r.field = ${term.key}
          and r.owning_id = ${term.objectId} and r.related_id = ${objects.id})`
  }
}

function fieldCondition(name: string, test: FieldTest): SQL {
  const f = field(name)
  switch (test.op) {
    case '$eq':
      return test.value === null
        ? sql`(${f} is null or ${f} = 'null'::jsonb)`
        : sql`${f} = ${json(test.value)}`
    case '$ne':
      return test.value === null
        ? sql`(${f} is not null and ${f} <> 'null'::jsonb)`
        : sql`${f} is distinct from ${json(test.value)}`
    case '$in':
    case '$nin': {
      const list = test.values.map((v) => json(v))
      const member = list.length ? sql`${f} in (${sql.join(list, sql`, `)})` : sql`false`
      return test.op === '$in'
        ? sql`coalesce(${member}, false)`
        : sql`not coalesce(${member}, false)`
    }
    case '$all':
      // Every listed value is an element of the array field.
      return sql`(${typeGuard(sql`jsonb_typeof(${f}) = 'array'`)} and ${f} @> ${json(test.values)})`
    case '$containedBy':
      // Every element of the array field is among the values (an empty array is).
      return sql`(${typeGuard(sql`jsonb_typeof(${f}) = 'array'`)} and ${f} <@ ${json(test.values)})`
    case '$exists':
      return test.exists ? sql`${f} is not null` : sql`${f} is null`
    case '$regex':
      return regexCondition(name, test.pattern, test.options)
    case '$text':
      return textCondition(name, test)
    case '$nearSphere':
    case '$box':
    case '$polygon':
    case '$centerSphere':
    case '$geoIntersects':
      return geoCondition(name, test)
  }
  const operator = sql.raw(RANGE[test.op])
  const { bound } = test
  if (bound.type === 'numeric') return integerRange(name, RANGE[test.op], bound.value)
  // Only values of the same JSON type compare: jsonb orders all numbers below all booleans etc.
  if (bound.type === 'date') {
    // Stored dates are canonical ISO strings, which sort as text in time order.
    return sql`(${typeGuard(sql`${f} ->> '__type' = 'Date'`)} and (${f} ->> 'iso') ${operator} ${bound.iso}::text)`
  }
  return sql`(${typeGuard(sql`jsonb_typeof(${f}) = ${bound.type}::text`)} and ${f} ${operator} ${json(bound.value)})`
}

function columnCondition(column: PgColumn, test: ColumnTest<string | Date>): SQL {
  switch (test.op) {
    case '$eq':
      return eq(column, test.value)
    case '$ne':
      return ne(column, test.value)
    case '$in':
    case '$nin':
      if (test.values.length === 0) return test.op === '$in' ? sql`false` : sql`true`
      return test.op === '$in' ? inArray(column, test.values) : notInArray(column, test.values)
    case '$exists':
      return test.exists ? sql`true` : sql`false`
    default:
      return COMPARE[test.op](column, test.value)
  }
}

/** Accented Latin letters and the letters they are read as when accents do not count. */
const ACCENTED = 'ÀÁÂÃÄÅàáâãäåÇçÈÉÊËèéêëÌÍÎÏìíîïÑñÒÓÔÕÖØòóôõöøÙÚÛÜùúûüÝýÿ'
const UNACCENTED = 'AAAAAAaaaaaaCcEEEEeeeeIIIIiiiiNnOOOOOOooooooUUUUuuuuYyy'

/**
 * `$text` on a string field: PostgreSQL's full text search in `language` (stems and stop words),
 * the term read as a web search (words, "quoted phrases", -excluded), which never fails on
 * what a user typed. Case-sensitive, the term's words must also appear as written. Unless
 * diacritic-sensitive (Parse's default is not), the text and the term are both read with
 * accented Latin letters as their plain letters; a fixed `translate` instead of the `unaccent`
 * extension, which PGlite and a managed PostgreSQL may not have.
 */
function textCondition(
  name: string,
  test: { term: string; language: string; caseSensitive: boolean; diacriticSensitive: boolean },
): SQL {
  const { term, language, caseSensitive, diacriticSensitive } = test
  const f = field(name)
  const plain = (value: SQL) =>
    diacriticSensitive ? value : sql`translate(${value}, ${ACCENTED}::text, ${UNACCENTED}::text)`
  const text = plain(sql`(${objects.data} ->> ${name}::text)`)
  const matched = sql`to_tsvector(${language}::regconfig, ${text}) @@ websearch_to_tsquery(${language}::regconfig, ${plain(sql`${term}::text`)})`
  const words = term.match(/[\p{L}\p{N}]+/gu) ?? []
  const exact = caseSensitive
    ? words.map((word) => sql` and strpos(${text}, ${plain(sql`${word}::text`)}) > 0`)
    : []
  return sql`(${typeGuard(sql`jsonb_typeof(${f}) = 'string'`)} and ${matched}${sql.join(exact, sql``)})`
}

/**
 * `$regex` (with `$options` i, m, s, x) on a string field, run by PostgreSQL's regular
 * expression engine, whose run time does not explode on nested quantifiers like `(a+)+$` the way
 * a backtracking engine's does.
 */
function regexCondition(name: string, pattern: string, flags: string): SQL {
  // PostgreSQL's embedded options. Its `.` matches a newline, with or without `s` (as Parse
  // Server on PostgreSQL has it). The JavaScript `m` makes `^` and `$` match at each line and
  // changes nothing else: PostgreSQL's `w` (its `n` would also stop `.` at newlines).
  const embedded = [...new Set(flags.replace('s', '').replace('m', 'w'))].join('')
  const text = embedded ? `(?${embedded})${pattern}` : pattern
  const f = field(name)
  return sql`(${typeGuard(sql`jsonb_typeof(${f}) = 'string'`)} and (${objects.data} ->> ${name}::text) ~ ${text}::text)`
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
  condition: Condition | undefined,
  order: string | undefined,
): boolean {
  const first = order?.split(',').find(Boolean)?.replace(/^-/, '')
  if (first !== undefined && first !== 'createdAt') return false
  if (first === undefined && nearestFirst(condition).length > 0) return false
  for (const term of fieldTerms(condition)) if (term.kind !== 'field') return false
  return true
}

/**
 * `order=-score,name` → ORDER BY terms, ending with a stable tie-break on creation and id.
 * Without an order, a `where` with `$nearSphere` at its top sorts nearest first.
 */
export function translateOrder(
  text: string | undefined,
  condition?: Condition,
  /** Fields sorted as the integers they hold (integer-fields.ts). */
  integerFields?: ReadonlySet<string>,
): SQL[] {
  const keys = text ? text.split(',').filter(Boolean) : []
  const terms: SQL[] = keys.length === 0 ? nearestFirst(condition) : []
  if (keys.length > 5) throw invalid('Order by at most 5 fields.')
  for (const key of keys) {
    const descending = key.startsWith('-')
    const name = descending ? key.slice(1) : key
    const column = Object.hasOwn(COLUMNS, name) ? COLUMNS[name] : undefined
    if (!column) assertFieldName(name)
    const expression = column
      ? sql`${column}`
      : integerFields?.has(name)
        ? integerValue(name)
        : field(name)
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
