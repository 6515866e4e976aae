import type { WireObject } from './rows.ts'
import type { Document } from './wire.ts'

// Portico's objects in Parse's object JSON and back, written once for the compatibility mount,
// cloud code, the import and the console's export. Parse's object JSON is the document's fields
// beside an envelope (`objectId`, `createdAt`, `updatedAt`, `ACL`, and `className` where the
// class is not known from elsewhere); an object embedded in another (an included pointer, a row
// of an export) also carries `__type: "Object"`. The times are ISO strings in the envelope and
// Date values (`{ __type: "Date", iso }`) everywhere else, as a query compares them.

export type ParseObject = Record<string, unknown>

/** The keys of Parse's object JSON that are the object's own columns, not document fields. */
export const PARSE_ENVELOPE: ReadonlySet<string> = new Set([
  'objectId',
  'className',
  'createdAt',
  'updatedAt',
  'ACL',
])

/** The fields every Parse class has, with the types its schema names them by. */
export const PARSE_DEFAULT_FIELDS: Readonly<Record<string, { type: string }>> = {
  objectId: { type: 'String' },
  createdAt: { type: 'Date' },
  updatedAt: { type: 'Date' },
  ACL: { type: 'ACL' },
}

export type TimeField = 'createdAt' | 'updatedAt'

export const isTimeField = (key: string): key is TimeField =>
  key === 'createdAt' || key === 'updatedAt'

/** Parse's storage names of the creation and update times, which its `order` also takes. */
const TIME_ALIASES: Readonly<Record<string, TimeField>> = {
  _created_at: 'createdAt',
  _updated_at: 'updatedAt',
}

/** `name`, or the time it stands for when it is Parse's storage name of one (`_created_at`). */
export function timeAlias(name: string): string {
  return Object.hasOwn(TIME_ALIASES, name) ? TIME_ALIASES[name]! : name
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
    ACL: object.acl,
  }
}

/** A Portico object as Parse embeds one in another (an included pointer's target). */
export function embeddedParseObject(object: WireObject): ParseObject {
  return { __type: 'Object', className: object.className, ...toParseObject(object) }
}

/** The document fields of Parse's object JSON: the envelope and the `__type` marker left out. */
export function parseFields(json: Record<string, unknown>): Document {
  const data: Document = {}
  for (const [key, value] of Object.entries(json))
    if (!PARSE_ENVELOPE.has(key) && key !== '__type') data[key] = value
  return data
}

/** The value of `key` in `object` as a query compares it: an id, a time as a Date, or a field. */
export function queryValue(object: WireObject, key: string): unknown {
  if (key === 'objectId') return object.objectId
  if (isTimeField(key)) return { __type: 'Date', iso: object[key] }
  return object.data[key]
}

/**
 * A time of Parse's object JSON: an ISO string (the envelope's form) or a Date value; undefined
 * for anything else or a time that does not parse.
 */
export function parseTime(value: unknown): Date | undefined {
  const text = typeof value === 'string' ? value : (value as { iso?: unknown } | null)?.iso
  const parsed = typeof text === 'string' ? new Date(text) : undefined
  return parsed && !Number.isNaN(parsed.getTime()) ? parsed : undefined
}

export interface Pointer {
  __type: 'Pointer'
  className: string
  objectId: string
}

export function isPointer(value: unknown): value is Pointer {
  const pointer = value as Partial<Pointer> | null
  return (
    pointer !== null &&
    typeof pointer === 'object' &&
    pointer.__type === 'Pointer' &&
    typeof pointer.className === 'string' &&
    typeof pointer.objectId === 'string'
  )
}

/** A pointer to an object (anything that names its class and id). */
export const pointerTo = (object: { className: string; objectId: string }): Pointer => ({
  __type: 'Pointer',
  className: object.className,
  objectId: object.objectId,
})
