import { isDeepStrictEqual } from 'node:util'
import { HttpError } from '../errors.ts'
import type { WireObject } from '../objects/rows.ts'
import { normaliseValue, type Document } from '../objects/wire.ts'
import { assertFieldName } from '../objects/names.ts'
import { ParseCode, ParseError } from './parse-error.ts'

// Portico objects in Parse's shape, and Parse writes (fields, ACL, operations) applied to
// Portico objects. Portico's access rule is an owner plus an optional public read; a Parse ACL
// is mapped onto it when it says exactly that, and refused otherwise, never widened:
//   no ACL sent on create      → public read, only the creator writes (Parse's default would
//                                also let everyone write; Portico narrows it, never widens)
//   { <creator>: read+write }  → private to the creator (also `{}`, which Parse keeps from
//                                everyone but the master key, and Portico from all but the owner)
//   … + "*": { read: true }    → public read
//   anything else ("*" write, other users, roles, a creator without write) → 119, nothing stored

export type ParseObject = Record<string, unknown>

/** Fields of the object envelope that a write may carry but that are not document fields. */
const ENVELOPE = new Set(['objectId', 'createdAt', 'updatedAt', 'className', 'ACL'])

/** The ACL of an object in Parse's form. */
export function aclOf(object: Pick<WireObject, 'owner' | 'publicRead'>) {
  return {
    ...(object.publicRead ? { '*': { read: true } } : {}),
    [object.owner]: { read: true, write: true },
  }
}

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
    ACL: aclOf(object),
  }
}

const forbiddenAcl = (why: string) =>
  new ParseError(
    ParseCode.OPERATION_FORBIDDEN,
    `Portico stores an owner and an optional public read: ${why}. Send an ACL giving the signed-in user read and write, and "*" read if everyone may read it.`,
  )

/** The `publicRead` an ACL means for an object owned by `ownerId`; throws 119 when Portico cannot express it. */
export function publicReadOfAcl(acl: unknown, ownerId: string): boolean {
  if (acl === null || typeof acl !== 'object' || Array.isArray(acl))
    throw new ParseError(ParseCode.INCORRECT_TYPE, 'ACL must be an object.')
  const entries = Object.entries(acl as Record<string, unknown>)
  if (entries.length === 0) return false
  let publicRead = false
  let ownerWrites = false
  for (const [who, rights] of entries) {
    if (rights === null || typeof rights !== 'object')
      throw new ParseError(
        ParseCode.INCORRECT_TYPE,
        `ACL entry "${who.slice(0, 80)}" must be an object.`,
      )
    const { read, write, ...rest } = rights as { read?: unknown; write?: unknown }
    if (Object.keys(rest).length)
      throw new ParseError(ParseCode.INCORRECT_TYPE, 'ACL entries carry only "read" and "write".')
    if (who === '*') {
      if (write === true) throw forbiddenAcl('public write access cannot be granted')
      publicRead = read === true
    } else if (who === ownerId) {
      if (read !== true || write !== true)
        throw forbiddenAcl("the object's owner always reads and writes it")
      ownerWrites = true
    } else if (who.startsWith('role:')) {
      throw forbiddenAcl('roles are not supported')
    } else {
      throw forbiddenAcl('only the signed-in owner can be given access')
    }
  }
  if (!ownerWrites) throw forbiddenAcl("the ACL must give the object's owner read and write")
  return publicRead
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
