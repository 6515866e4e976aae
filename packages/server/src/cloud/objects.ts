import { isDeepStrictEqual } from 'node:util'
import { parseAcl, type Acl } from '../objects/acl.ts'
import { isRelation } from '../objects/relations.ts'
import type { WireObject } from '../objects/rows.ts'
import { normaliseDocument, type Document } from '../objects/wire.ts'
import { parseFields, toParseObject } from '../objects/parse-shape.ts'
import type { ParseSdk } from './parse-sdk.ts'

// Portico's objects as cloud code's SDK objects and back: a trigger gets `Parse.Object`s whose
// changed fields are dirty (as in Parse Server: `request.object.dirty('score')`), and what it
// leaves in them is read back as a document and ACL, checked like any client's write.

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type SdkObject = any

/** How an object's fields look to Parse clients (a synced class's as Moralis v1 showed them). */
export type ParseShape = (object: WireObject) => Record<string, unknown>

/** A stored object as the SDK's object, nothing dirty. */
export function sdkObject(Parse: ParseSdk, object: WireObject, shape?: ParseShape): SdkObject {
  const fields = shape ? shape(object) : toParseObject(object)
  return Parse.Object.fromJSON({ className: object.className, ...fields }, true)
}

/**
 * The object about to be saved: `original` (null for a create) with the new fields set on it,
 * so that they, and only they, are dirty.
 */
export function draftObject(
  Parse: ParseSdk,
  draft: { className: string; objectId?: string | undefined; data: Document; acl: Acl },
  original: WireObject | null,
): SdkObject {
  const object = original
    ? sdkObject(Parse, original)
    : Parse.Object.fromJSON({ className: draft.className }, true)
  const before = original?.data ?? {}
  for (const [key, value] of Object.entries(draft.data)) {
    if (isRelation(value) || isDeepStrictEqual(before[key], value)) continue
    object.set(key, Parse._decode(key, value))
  }
  for (const key of Object.keys(before)) if (!(key in draft.data)) object.unset(key)
  if (!original || !isDeepStrictEqual(original.acl, draft.acl))
    object.setACL(new Parse.ACL(draft.acl))
  return object
}

/** What an SDK object holds, as a document and ACL to save (checked as a client's write is). */
export function savedFields(object: SdkObject, fallbackAcl: Acl): { data: Document; acl: Acl } {
  const json = object.toJSON() as Record<string, unknown>
  return {
    data: normaliseDocument(parseFields(json)),
    acl: json.ACL === undefined ? fallbackAcl : parseAcl(json.ACL),
  }
}

/** An SDK object (an `afterFind`'s answer) as a stored object; `known` gives what it lacks. */
export function wireOf(object: SdkObject, known: WireObject | undefined): WireObject {
  const fields = savedFields(object, known?.acl ?? {})
  const now = new Date().toISOString()
  return {
    objectId: String(object.id ?? known?.objectId ?? ''),
    className: String(object.className ?? known?.className),
    owner: known?.owner ?? '',
    acl: fields.acl,
    publicRead: fields.acl['*']?.read === true,
    createdAt: known?.createdAt ?? object.createdAt?.toISOString?.() ?? now,
    updatedAt: known?.updatedAt ?? object.updatedAt?.toISOString?.() ?? now,
    data: fields.data,
  }
}
