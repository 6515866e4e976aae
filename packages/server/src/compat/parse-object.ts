import { isDeepStrictEqual } from 'node:util'
import { HttpError } from '../errors.ts'
import type { WireObject } from '../objects/rows.ts'
import { normaliseValue, type Document } from '../objects/wire.ts'
import { ownerAcl, parseAcl, type Acl } from '../objects/acl.ts'
import { assertFieldName } from '../objects/names.ts'
import { ParseCode, ParseError } from './parse-error.ts'

// Portico objects in Parse's shape, and Parse writes (fields, ACL, operations) applied to
// Portico objects. ACLs are Parse's own (objects/acl.ts), stored and answered as they are. An
// object created without an ACL gets Portico's default: everyone reads it, only its creator
// writes it (Parse's default would also let everyone write; Portico narrows it).

export type ParseObject = Record<string, unknown>

/** Fields of the object envelope that a write may carry but that are not document fields. */
const ENVELOPE = new Set(['objectId', 'createdAt', 'updatedAt', 'className', 'ACL'])

/** A Portico object as Parse clients read it; `keys` keeps only those fields (and the envelope). */
export function toParseObject(object: WireObject, keys?: readonly string[]): ParseObject {
  const data = keys
    ? Object.fromEntries(Object.entries(object.data).filter(([key]) => keys.includes(key)))
    : object.data
  return {
    ...data,
    objectId: object.objectId,
    createdAt: object.createdAt,
    updatedAt: object.updatedAt,
    ACL: object.acl,
  }
}

/** The ACL an object is created with: the one sent, else everyone reads and `creator` writes. */
export function createAcl(sent: unknown, creator: string | undefined): Acl {
  if (sent !== undefined) return parseAcl(sent)
  return creator === undefined ? { '*': { read: true } } : ownerAcl(creator, true)
}

const incorrect = (message: string) => new ParseError(ParseCode.INCORRECT_TYPE, message)

function normalise(value: unknown, key: string): unknown {
  try {
    return normaliseValue(value, key)
  } catch (error) {
    if (error instanceof HttpError) throw incorrect(error.message)
    throw error
  }
}

function listOf(op: Record<string, unknown>, key: string): unknown[] {
  if (!Array.isArray(op.objects))
    throw incorrect(`${String(op.__op)} on "${key}" needs "objects", an array.`)
  return op.objects.map((item, i) => normalise(item, `${key}[${i}]`))
}

function currentArray(value: unknown, key: string): unknown[] {
  if (value === undefined || value === null) return []
  if (!Array.isArray(value)) throw incorrect(`"${key}" is not an array.`)
  return value
}

/** One field's Parse operation applied to its current value; `undefined` deletes the field. */
function applyOperation(current: unknown, op: Record<string, unknown>, key: string): unknown {
  switch (op.__op) {
    case 'Delete':
      return undefined
    case 'Increment': {
      if (typeof op.amount !== 'number' || !Number.isFinite(op.amount))
        throw incorrect(`Increment of "${key}" needs a numeric "amount".`)
      const base = current === undefined || current === null ? 0 : current
      if (typeof base !== 'number')
        throw incorrect(`"${key}" is not a number and cannot be incremented.`)
      return base + op.amount
    }
    case 'Add':
      return [...currentArray(current, key), ...listOf(op, key)]
    case 'AddUnique': {
      const out = [...currentArray(current, key)]
      for (const item of listOf(op, key))
        if (!out.some((existing) => isDeepStrictEqual(existing, item))) out.push(item)
      return out
    }
    case 'Remove': {
      const remove = listOf(op, key)
      return currentArray(current, key).filter(
        (existing) => !remove.some((item) => isDeepStrictEqual(existing, item)),
      )
    }
    default:
      throw incorrect(
        `The operation ${String(op.__op).slice(0, 40)} on "${key}" is not supported (Portico has Increment, Add, AddUnique, Remove and Delete; no relations).`,
      )
  }
}

function fieldName(key: string): string {
  try {
    return assertFieldName(key)
  } catch (error) {
    if (error instanceof HttpError) throw new ParseError(ParseCode.INVALID_KEY_NAME, error.message)
    throw error
  }
}

/** The document after a Parse write body (plain values and operations) is applied to `current`. */
export function applyParseWrite(current: Document, body: Record<string, unknown>): Document {
  const next: Document = { ...current }
  for (const [key, value] of Object.entries(body)) {
    if (ENVELOPE.has(key)) continue
    fieldName(key)
    const isOp =
      value !== null && typeof value === 'object' && !Array.isArray(value) && '__op' in value
    if (isOp) {
      const result = applyOperation(next[key], value as Record<string, unknown>, key)
      if (result === undefined) delete next[key]
      else next[key] = result
    } else {
      next[key] = normalise(value, key)
    }
  }
  return next
}
