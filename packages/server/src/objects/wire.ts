import { badRequest } from '../errors.ts'
import { assertFieldName, isPointerClass } from './names.ts'

// Checks and normalises a document before it is stored. Values use the wire forms of
// Date `{ __type: "Date", iso }`, File `{ __type: "File", name, url }`,
// Pointer `{ __type: "Pointer", className, objectId }`. Dates are rewritten to the canonical
// `toISOString()` form so that range queries can compare them as text.

const MAX_DEPTH = 32

export type Document = Record<string, unknown>

function invalid(message: string): never {
  throw badRequest(message, 'invalid_value')
}

/** Checks one value (and what it contains) and returns it with Dates in canonical form. */
export function normaliseValue(value: unknown, path: string, depth = 1): unknown {
  if (depth > MAX_DEPTH) invalid(`"${path}" is nested too deeply (at most ${MAX_DEPTH} levels).`)
  if (Array.isArray(value))
    return value.map((v, i) => normaliseValue(v, `${path}[${i}]`, depth + 1))
  if (value === null || typeof value !== 'object') return value
  const object = value as Record<string, unknown>
  switch (object.__type) {
    case undefined:
      break
    case 'Date': {
      const time = typeof object.iso === 'string' ? Date.parse(object.iso) : Number.NaN
      if (Number.isNaN(time)) invalid(`"${path}" is a Date without a valid "iso" time.`)
      return { __type: 'Date', iso: new Date(time).toISOString() }
    }
    case 'File':
      if (typeof object.name !== 'string' || typeof object.url !== 'string')
        invalid(`"${path}" is a File without "name" and "url".`)
      return { __type: 'File', name: object.name, url: object.url }
    case 'Pointer':
      if (!isPointerClass(object.className) || typeof object.objectId !== 'string')
        invalid(`"${path}" is a Pointer without a valid "className" and "objectId".`)
      return { __type: 'Pointer', className: object.className, objectId: object.objectId }
    default:
      invalid(`"${path}" has an unknown __type.`)
  }
  const out: Record<string, unknown> = {}
  for (const [key, inner] of Object.entries(object)) {
    if (key === '__proto__') invalid(`"${path}" has a "__proto__" key.`)
    out[key] = normaliseValue(inner, `${path}.${key}`, depth + 1)
  }
  return out
}

/** Validates the top-level field names and the wire forms inside; returns the normalised document. */
export function normaliseDocument(data: unknown): Document {
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    throw badRequest('"data" must be a JSON object.', 'invalid_value')
  }
  const out: Document = {}
  for (const [key, value] of Object.entries(data)) {
    assertFieldName(key)
    out[key] = normaliseValue(value, key, 1)
  }
  return out
}

/** True for a `{ __type: "Date", iso }` value (used by the query translation). */
export function isDateValue(value: unknown): value is { __type: 'Date'; iso: string } {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { __type?: unknown }).__type === 'Date' &&
    typeof (value as { iso?: unknown }).iso === 'string'
  )
}
