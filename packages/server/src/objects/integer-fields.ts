import { sql, type SQL } from 'drizzle-orm'
import { objects } from '../db/schema.ts'
import { badRequest } from '../errors.ts'
import type { Condition, FieldTest, Term, Value } from './condition.ts'

// Integer fields: document fields a class keeps integers in as exact decimal strings (the
// contract syncs' uint256 values, wider than a JavaScript number is exact; see class-rules.ts).
// As JSON strings they would compare as text ("9" after "10000"); the store rewrites a `where`
// on them (`integerCondition`) so that ranges compare, and `order` sorts, the value as an exact
// PostgreSQL `numeric`. Queries, pages, counts, exports and live queries all go through the
// same translation, and a field index on such a field is built on the same expression
// (field-indexes.ts), which PostgreSQL matches to the query's.

/** What an integer field's text must look like to be read as a number (else it is NULL). */
const DIGITS = `'^-?[0-9]{1,80}$'`

/**
 * A document field's integer as `numeric`, NULL when it holds no integer: a JSON number and a
 * decimal string alike (never a failed cast, whatever the field holds).
 */
export function integerValue(name: string): SQL {
  const text = sql`(${objects.data} ->> ${name}::text)`
  return sql`(case when ${text} ~ ${sql.raw(DIGITS)} then ${text}::numeric end)`
}

/** The same expression as an index's definition (`field` is a validated name). */
export function integerIndexExpression(field: string): string {
  const text = `(data ->> '${field}'::text)`
  return `(case when ${text} ~ ${DIGITS} then ${text}::numeric end)`
}

/** A range on an integer field, compared with `value` (decimal text) as exact numbers. */
export function integerRange(name: string, operator: string, value: string): SQL {
  return sql`${integerValue(name)} ${sql.raw(operator)} ${value}::numeric`
}

/** A number as decimal text (PostgreSQL's `numeric` reads exponents too). */
const DECIMAL = /^-?[0-9]{1,80}(\.[0-9]{1,80})?([eE][-+]?[0-9]{1,3})?$/
const INTEGER = /^-?[0-9]{1,80}$/

/**
 * `condition` with its terms on `fields` made to compare numbers: ranges take a `numeric`
 * bound (a number, or a decimal string), and an equality with an integer given as a number or
 * as digits (`5`, `"005"`) matches it in each form it may be stored in (`"5"`, `5`).
 */
export function integerCondition(
  condition: Condition | undefined,
  fields: ReadonlySet<string>,
): Condition | undefined {
  if (condition === undefined || fields.size === 0) return condition
  return { terms: condition.terms.map((term) => integerTerm(term, fields)) }
}

function integerTerm(term: Term, fields: ReadonlySet<string>): Term {
  if (term.kind === 'or' || term.kind === 'and' || term.kind === 'nor')
    return { kind: term.kind, of: term.of.map((part) => integerCondition(part, fields)!) }
  if (term.kind !== 'field' || !fields.has(term.field)) return term
  return { ...term, test: integerTest(term.field, term.test) }
}

function integerTest(name: string, test: FieldTest): FieldTest {
  switch (test.op) {
    case '$eq':
    case '$ne': {
      const forms = storedForms(test.value)
      if (forms.length === 1) return { op: test.op, value: forms[0]! }
      return { op: test.op === '$eq' ? '$in' : '$nin', values: forms }
    }
    case '$in':
    case '$nin':
      return { op: test.op, values: test.values.flatMap(storedForms) }
    case '$gt':
    case '$gte':
    case '$lt':
    case '$lte':
      return { op: test.op, bound: { type: 'numeric', value: decimal(name, test) } }
    default:
      return test
  }
}

function decimal(name: string, test: Extract<FieldTest, { bound: unknown }>): string {
  const { bound } = test
  if (bound.type === 'number') return String(bound.value)
  if (bound.type === 'string' && DECIMAL.test(bound.value)) return bound.value
  if (bound.type === 'numeric') return bound.value
  throw badRequest(
    `${name} holds integers: ${test.op} compares it with a number or a decimal string.`,
    'invalid_query',
  )
}

/**
 * The forms an integer may be stored in: decimal text without leading zeros, and a JSON number
 * when it is exact as one (a class's narrower integers are numbers, see class-rules.ts). Other
 * values are themselves.
 */
function storedForms(value: Value): Value[] {
  let integer: bigint | undefined
  // A number is taken as written (its shortest decimal, as a range takes it), exact or not.
  if (typeof value === 'number' && Number.isInteger(value))
    integer = BigInt(/e/.test(String(value)) ? value : String(value))
  if (typeof value === 'string' && INTEGER.test(value)) integer = BigInt(value)
  if (integer === undefined) return [value]
  const asNumber = Number(integer)
  return Number.isSafeInteger(asNumber) ? [integer.toString(), asNumber] : [integer.toString()]
}
