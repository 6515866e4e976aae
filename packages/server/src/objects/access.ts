import { and, eq, sql, type SQL } from 'drizzle-orm'
import { textArray } from '../db/client.ts'
import { objects } from '../db/schema.ts'
import { forbidden, notFound } from '../errors.ts'

// The access rule, written once: an object's ACL (acl.ts) says who reads it and who writes it,
// as two lists of `*`, user ids and `role:<name>`. A viewer has a list of their own: `*`, their
// user id and each role they are in (viewer-roles.ts); they may read (write) an object when the
// two lists share an entry. Every statement the store runs for a caller (fetches, pages, counts,
// exports, changes and deletes) takes its condition from here, in its WHERE clause, so no
// read-then-write race can bypass it; live matching evaluates it on a one-row stand-in. The
// server's own reads and writes (`ANY_OWNER`, the import, syncs) have none.

/**
 * The master key and the admin console, which read and change any object (each change in the
 * audit log when the caller names its actor, `ObjectTarget.auditActor`).
 */
export const ANY_OWNER: unique symbol = Symbol('any owner')
/** Who reads or changes an object, as callers name them: a user id, or `ANY_OWNER`. */
export type Changer = string | typeof ANY_OWNER

/**
 * A viewer as the access rule compares them: their list (`*`, user id, roles), `ANY_OWNER`, or
 * undefined for a visitor who is not signed in (who has `*` alone).
 */
export type Viewer = readonly string[] | typeof ANY_OWNER | undefined

const everyone = ['*']

/**
 * The objects `viewer` may read; undefined (no condition) for `ANY_OWNER`. The viewer may also
 * be an SQL value holding a list, when each row of one statement has its own viewer (fetches
 * read together).
 */
export function visibleTo(viewer: Viewer | SQL): SQL | undefined {
  if (viewer === ANY_OWNER) return undefined
  if (viewer === undefined || Array.isArray(viewer))
    return sql`${objects.readPerm} && ${textArray((viewer as string[] | undefined) ?? everyone)}`
  return sql`${objects.readPerm} && ${viewer as SQL}`
}

/** The objects `viewer` may change or delete (see `visibleTo`). */
export function writableBy(viewer: Viewer): SQL | undefined {
  if (viewer === ANY_OWNER) return undefined
  return sql`${objects.writePerm} && ${textArray(viewer ?? everyone)}`
}

/** Objects of `className` that `viewer` may read (see `visibleTo`). */
export function readableBy(className: string, viewer: Viewer): SQL {
  return and(eq(objects.className, className), visibleTo(viewer))!
}

export const byId = (className: string, objectId: string): SQL =>
  and(eq(objects.className, className), eq(objects.id, objectId))!

/** The object if `viewer` may change or delete it. */
export const changeableBy = (className: string, objectId: string, viewer: Viewer): SQL =>
  and(byId(className, objectId), writableBy(viewer))!

/** The refusal for an object the caller cannot read: its existence is not revealed. */
export const unreadable = () => notFound('No such object, or it is not yours to read.')

/** The refusal for an object the caller reads but may not change. */
export const unwritable = () =>
  forbidden(
    "This object's ACL does not let you change it: ask someone with write access to change it or its ACL.",
  )
