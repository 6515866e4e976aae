import type { Condition, Term } from './condition.ts'

// Array fields: document fields a class declares as `Array` in its schema (the schema routes, an
// imported `_SCHEMA`). As in Parse, an equality with one value on such a field matches the arrays
// holding it (`{tags: "a"}` finds `tags: ["a", "b"]`). Only declared fields are rewritten: an
// equality on any other field stays one comparison, which a field index serves.

/** `condition` with each single-value equality on `fields` asking for an array holding it. */
export function arrayCondition(
  condition: Condition | undefined,
  fields: ReadonlySet<string>,
): Condition | undefined {
  if (condition === undefined || fields.size === 0) return condition
  return { terms: condition.terms.map((term) => arrayTerm(term, fields)) }
}

function arrayTerm(term: Term, fields: ReadonlySet<string>): Term {
  if (term.kind === 'or' || term.kind === 'and' || term.kind === 'nor')
    return { kind: term.kind, of: term.of.map((part) => arrayCondition(part, fields)!) }
  if (term.kind !== 'field' || !fields.has(term.field) || term.test.op !== '$eq') return term
  const { value } = term.test
  if (value === null || Array.isArray(value)) return term
  return { ...term, test: { op: '$all', values: [value] } }
}
