import { inArray } from 'drizzle-orm'
import type { Database } from '../db/client.ts'
import { users } from '../db/schema.ts'
import { badRequest } from '../errors.ts'
import { ANY_OWNER } from '../objects/access.ts'
import type { Acl } from '../objects/acl.ts'
import { parseWhere } from '../objects/condition.ts'
import type { ObjectStore } from '../objects/object-store.ts'
import { ROLE_CLASS } from '../roles/rules.ts'

// What the console saves names only what exists: a pointer to an object that is not there, or
// an ACL naming a role nobody created (`role:editorz` for `role:editors`), would be saved
// without a word and then match nothing. Parse Server itself accepts both, so the
// compatibility mount keeps doing so; the console, where a person types the names, checks them.

interface Pointer {
  field: string
  className: string
  objectId: string
}

/** The pointers of a document: its fields, in arrays and in nested objects. */
function pointersOf(value: unknown, field: string, found: Pointer[] = []): Pointer[] {
  if (Array.isArray(value)) for (const item of value) pointersOf(item, field, found)
  else if (value && typeof value === 'object') {
    const object = value as Record<string, unknown>
    if (
      object.__type === 'Pointer' &&
      typeof object.className === 'string' &&
      typeof object.objectId === 'string'
    )
      found.push({ field, className: object.className, objectId: object.objectId })
    else if (object.__type === undefined)
      for (const [key, inner] of Object.entries(object))
        pointersOf(inner, field ? `${field}.${key}` : key, found)
  }
  return found
}

const shown = (text: string) => JSON.stringify(text.length > 80 ? `${text.slice(0, 80)}…` : text)

/**
 * Refuses (400 `invalid_reference`) a document with a pointer to an object that does not exist,
 * or an ACL naming a user or role that does not exist, saying which and what to do. What the
 * object already held (read by `before`, only when the document has references to check) is
 * not checked again: an edit of one field of an imported object whose other pointer dangles is
 * not refused for that pointer.
 */
export async function checkReferences(
  db: Database,
  objects: ObjectStore,
  document: { data?: Record<string, unknown>; acl?: Acl | undefined },
  before: () => Promise<{ data: Record<string, unknown>; acl: Acl } | null>,
): Promise<void> {
  const sent = pointersOf(document.data ?? {}, '')
  const sentAcl = Object.keys(document.acl ?? {}).filter((entry) => entry !== '*')
  if (sent.length === 0 && sentAcl.length === 0) return
  const held = await before()
  // No such object: the write that follows answers 404.
  if (!held) return
  const key = (p: Pointer) => `${p.field}\u0000${p.className}\u0000${p.objectId}`
  const heldPointers = new Set(pointersOf(held.data, '').map(key))
  const pointers = sent.filter((p) => !heldPointers.has(key(p)))
  const userIds = new Set<string>()
  for (const pointer of pointers) if (pointer.className === '_User') userIds.add(pointer.objectId)
  const aclKeys = sentAcl.filter((entry) => !(entry in held.acl))
  const roleNames = aclKeys.filter((e) => e.startsWith('role:')).map((e) => e.slice(5))
  for (const entry of aclKeys) if (!entry.startsWith('role:')) userIds.add(entry)

  const knownUsers = new Set(
    userIds.size
      ? (
          await db
            .select({ id: users.id })
            .from(users)
            .where(inArray(users.id, [...userIds]))
        ).map((row) => row.id)
      : [],
  )
  for (const pointer of pointers) {
    const exists =
      pointer.className === '_User'
        ? knownUsers.has(pointer.objectId)
        : (await objects.get(pointer.className, pointer.objectId, ANY_OWNER)) !== null
    if (!exists)
      throw badRequest(
        `"${pointer.field}" points to ${pointer.className} ${shown(pointer.objectId)}, which does not exist: pick an existing ${pointer.className} (search by id${pointer.className === '_User' ? ', username, email or address' : ''}), or clear the field.`,
        'invalid_reference',
        { field: pointer.field, className: pointer.className, objectId: pointer.objectId },
      )
  }
  for (const entry of aclKeys)
    if (!entry.startsWith('role:') && !knownUsers.has(entry))
      throw badRequest(
        `The ACL names the user ${shown(entry)}, who does not exist: name a user by id or by a wallet that has signed in, or remove the entry.`,
        'invalid_reference',
        { acl: entry },
      )
  if (roleNames.length === 0) return
  const roles = await objects.query(ANY_OWNER, ROLE_CLASS, {
    where: parseWhere({ name: { $in: roleNames } }),
    limit: roleNames.length,
    skip: 0,
  })
  const existing = new Set(roles.results.map((role) => role.data.name))
  const missing = roleNames.find((name) => !existing.has(name))
  if (missing !== undefined)
    throw badRequest(
      `The ACL names the role ${shown(missing)}, which does not exist: create it under Roles first, or pick an existing role.`,
      'invalid_reference',
      { acl: `role:${missing}` },
    )
}

/** `checkReferences` on one database and object store, for the console's routes. */
export class ReferenceCheck {
  readonly #db: Database
  readonly #objects: ObjectStore

  constructor(db: Database, objects: ObjectStore) {
    this.#db = db
    this.#objects = objects
  }

  check(
    document: { data?: Record<string, unknown>; acl?: Acl | undefined },
    before: () => Promise<{ data: Record<string, unknown>; acl: Acl } | null>,
  ): Promise<void> {
    return checkReferences(this.#db, this.#objects, document, before)
  }
}
