import type { ObjectStore } from '../objects/object-store.ts'
import { HttpError } from '../errors.ts'
import { normaliseValue, type Document } from '../objects/wire.ts'
import { ParseCode, ParseError } from './parse-error.ts'

// The `required` and `defaultValue` a class's schema declares for a field (`Parse.Schema`'s
// `addString('name', { required: true, defaultValue: 'x' })`), applied to writes as Parse Server
// does: a new object gets the default of each field it does not set, and a required field left
// without a value (missing, null or empty text) is refused with 142. A default is kept as
// declared and stored as a sent value is (a Polygon closed), as Parse Server does.

interface FieldRule {
  required?: unknown
  defaultValue?: unknown
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value)

/** The fields `className`'s schema declares with a rule; empty when it declares none. */
export async function fieldRules(
  store: ObjectStore,
  className: string,
): Promise<Record<string, FieldRule>> {
  const fields = await store.declaredFields(className)
  const rules: Record<string, FieldRule> = {}
  for (const [name, spec] of Object.entries(fields))
    if (isObject(spec) && (spec.required === true || !isNone(spec.defaultValue))) rules[name] = spec
  return rules
}

const isNone = (value: unknown) => value === undefined || value === null

const empty = (value: unknown) => value === undefined || value === null || value === ''

const required = (field: string) =>
  new ParseError(ParseCode.VALIDATION_ERROR, `${field} is required`)

/** A new object's fields with the declared defaults; refused when a required field is empty. */
export function withDefaults(data: Document, rules: Record<string, FieldRule>): Document {
  const out = { ...data }
  for (const [field, rule] of Object.entries(rules)) {
    if (!empty(out[field])) continue
    if (out[field] === undefined && !isNone(rule.defaultValue))
      out[field] = defaultValue(rule.defaultValue, field)
    else if (rule.required === true) throw required(field)
  }
  return out
}

/** A declared default as stored; one that is not a valid value is refused (111). */
export function defaultValue(value: unknown, field: string): unknown {
  try {
    return normaliseValue(value, field)
  } catch (error) {
    if (error instanceof HttpError)
      throw new ParseError(ParseCode.INCORRECT_TYPE, `The default of ${error.message}`)
    throw error
  }
}

/** Refuses an update that empties a required field (sets it to null or '', or deletes it). */
export function checkRequired(params: Record<string, unknown>, rules: Record<string, FieldRule>) {
  for (const [field, value] of Object.entries(params)) {
    if (rules[field]?.required !== true) continue
    const deleted = isObject(value) && value.__op === 'Delete'
    if (deleted || value === null || value === '') throw required(field)
  }
}
