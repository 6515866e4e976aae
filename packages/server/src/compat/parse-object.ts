import { isDeepStrictEqual } from 'node:util'
import { HttpError } from '../errors.ts'
import { normaliseValue, type Document } from '../objects/wire.ts'
import { ownerAcl, parseAcl, type Acl } from '../objects/acl.ts'
import { assertFieldName, isPointerClass } from '../objects/names.ts'
import { PARSE_ENVELOPE } from '../objects/parse-shape.ts'
import { MAX_RELATION_CHANGE, type RelationChange } from '../objects/relations.ts'
import { ParseCode, ParseError } from './parse-error.ts'
import { PUBLIC_ACL } from './parse-defaults.ts'

// Parse writes (fields, ACL, operations) applied to Portico objects; how objects look to Parse
// clients is objects/parse-shape.ts. ACLs are Parse's own (objects/acl.ts), stored and answered
// as they are. An object created without an ACL gets Parse's default (everyone reads and writes
// it) where parse-defaults.ts says so, else Portico's: everyone reads it, only its creator writes it.

/**
 * The ACL an object is created with: the one sent, else Parse's public one when `parseDefaults`,
 * else everyone reads and `creator` writes.
 */
export function createAcl(sent: unknown, creator: string | undefined, parseDefaults = false): Acl {
  if (sent !== undefined) return parseAcl(sent)
  if (parseDefaults) return { ...PUBLIC_ACL }
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
        `The operation ${String(op.__op).slice(0, 40)} on "${key}" is not supported (Portico has Increment, Add, AddUnique, Remove, Delete, AddRelation and RemoveRelation).`,
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

const RELATION_OPS = new Set(['AddRelation', 'RemoveRelation'])

/** Whether a body value is a relation operation (or a `Batch` of them, as the SDK sends both). */
function isRelationOp(value: unknown): boolean {
  const op = value as { __op?: unknown; ops?: unknown } | null
  if (op === null || typeof op !== 'object') return false
  if (RELATION_OPS.has(op.__op as string)) return true
  return op.__op === 'Batch' && Array.isArray(op.ops) && op.ops.every(isRelationOp)
}

function pointerIds(op: Record<string, unknown>, key: string, classes: Set<string>): string[] {
  if (!Array.isArray(op.objects) || op.objects.length > MAX_RELATION_CHANGE)
    throw incorrect(
      `${String(op.__op)} on "${key}" needs "objects", an array of at most ${MAX_RELATION_CHANGE} pointers.`,
    )
  return op.objects.map((item) => {
    const pointer = item as { __type?: unknown; className?: unknown; objectId?: unknown } | null
    if (
      !pointer ||
      (pointer.__type !== 'Pointer' && pointer.__type !== 'Object') ||
      !isPointerClass(pointer.className) ||
      typeof pointer.objectId !== 'string' ||
      pointer.objectId.length > 64
    )
      throw incorrect(`${String(op.__op)} on "${key}" takes pointers to saved objects.`)
    classes.add(pointer.className)
    return pointer.objectId
  })
}

/** The relation members a Parse write body adds and removes (`AddRelation`, `RemoveRelation`). */
export function relationChangesOf(body: Record<string, unknown>): RelationChange[] {
  const changes: RelationChange[] = []
  for (const [key, value] of Object.entries(body)) {
    if (PARSE_ENVELOPE.has(key) || !isRelationOp(value)) continue
    fieldName(key)
    const op = value as { __op: string; ops?: Record<string, unknown>[] }
    const classes = new Set<string>()
    const add: string[] = []
    const remove: string[] = []
    for (const part of op.__op === 'Batch' ? op.ops! : [op as Record<string, unknown>])
      (part.__op === 'AddRelation' ? add : remove).push(...pointerIds(part, key, classes))
    if (classes.size !== 1)
      throw incorrect(`The members of relation "${key}" are objects of one class.`)
    changes.push({ field: key, targetClass: [...classes][0]!, add, remove })
  }
  return changes
}

/** Most levels below a field a dot-notation key may name (`a.b.c`). */
const MAX_KEY_PATH = 16

/**
 * A write's key: its top-level field and the path below it (`objectField.number` sets `number`
 * inside `objectField`, as Parse does for nested objects).
 */
export function keyPath(key: string): { field: string; path: string[] } {
  const [field, ...path] = key.split('.')
  fieldName(field!)
  if (
    path.length > MAX_KEY_PATH ||
    path.some((part) => part === '' || part === '__proto__' || part.length > 128)
  )
    throw new ParseError(
      ParseCode.INVALID_KEY_NAME,
      `Invalid key "${key.slice(0, 80)}": a field, then at most ${MAX_KEY_PATH} names of nested keys, joined by dots.`,
    )
  return { field: field!, path }
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value) && !('__type' in value)

/**
 * `container` with the value at `path` replaced by `change(current value)` (removed when that is
 * undefined); missing objects on the way are made, as Parse makes them. An array is entered by
 * the index of an element it has.
 */
function changeNested(
  container: unknown,
  path: readonly string[],
  change: (current: unknown) => unknown,
  key: string,
): unknown {
  if (path.length === 0) return change(container)
  const [name, ...rest] = path as [string, ...string[]]
  if (Array.isArray(container)) {
    const index = /^\d+$/.test(name) ? Number(name) : -1
    if (index < 0 || index >= container.length)
      throw incorrect(`"${key}" names an element its array does not have.`)
    const out = [...container]
    const value = changeNested(out[index], rest, change, key)
    // An element cannot be removed from its place: it becomes null, as in a JSON array.
    out[index] = value === undefined ? null : value
    return out
  }
  if (container !== undefined && container !== null && !isPlainObject(container))
    throw incorrect(`"${key}" goes through a value that is not an object.`)
  const out: Record<string, unknown> = { ...container }
  const value = changeNested(out[name], rest, change, key)
  if (value === undefined) delete out[name]
  else out[name] = value
  return out
}

/** The document after a Parse write body (plain values and operations) is applied to `current`. */
export function applyParseWrite(current: Document, body: Record<string, unknown>): Document {
  const next: Document = { ...current }
  for (const [key, value] of Object.entries(body)) {
    if (PARSE_ENVELOPE.has(key) || isRelationOp(value)) continue
    const { field, path } = keyPath(key)
    // Parse Server refuses this name on every database (its MongoDB adapter cannot store it), so
    // a Parse app holds no such field; refused the same way here.
    if (field === 'length')
      throw new ParseError(ParseCode.INVALID_KEY_NAME, 'Invalid field name: length.')
    const isOp =
      value !== null && typeof value === 'object' && !Array.isArray(value) && '__op' in value
    const result = changeNested(
      next[field],
      path,
      (now) =>
        isOp ? applyOperation(now, value as Record<string, unknown>, key) : normalise(value, key),
      key,
    )
    if (result === undefined) delete next[field]
    else next[field] = result
  }
  return next
}
