import { and, eq, or, sql, type SQL } from 'drizzle-orm'
import { objects } from '../db/schema.ts'
import { notFound } from '../errors.ts'

// The access rule, written once: an object belongs to the user who created it; it is private
// unless the owner sets `publicRead`; only the owner changes or deletes it. Every statement of
// the store (fetches, pages, counts, exports, live matching, writes) takes its condition from
// here, in its WHERE clause, so no read-then-write race can bypass it.

/**
 * Who reads or changes an object: its owner's user id, or `ANY_OWNER` for the admin console,
 * which reads and changes any object (and records each change in its audit log).
 */
export const ANY_OWNER: unique symbol = Symbol('any owner')
export type Changer = string | typeof ANY_OWNER

/**
 * The objects `viewer` may read: a user reads their own and the public ones, a visitor who is
 * not signed in (undefined) the public ones, and `ANY_OWNER` all of them (no condition). The
 * viewer may also be an SQL value holding a user id or null, when each row of one statement has
 * its own viewer (fetches read together).
 */
export function visibleTo(viewer: Changer | SQL | undefined): SQL | undefined {
  if (viewer === ANY_OWNER) return undefined
  if (viewer === undefined) return eq(objects.publicRead, true)
  if (typeof viewer === 'string')
    return or(eq(objects.ownerId, viewer), eq(objects.publicRead, true))!
  return sql`(${objects.publicRead} or ${objects.ownerId} = ${viewer})`
}

/** Objects of `className` that `viewer` may read (see `visibleTo`). */
export function readableBy(className: string, viewer: Changer | undefined): SQL {
  return and(eq(objects.className, className), visibleTo(viewer))!
}

export const byId = (className: string, objectId: string): SQL =>
  and(eq(objects.className, className), eq(objects.id, objectId))!

/** The object `userId` may change or delete: their own, or any for `ANY_OWNER`. */
export const changeableBy = (className: string, objectId: string, userId: Changer): SQL =>
  userId === ANY_OWNER
    ? byId(className, objectId)
    : and(byId(className, objectId), eq(objects.ownerId, userId))!

/** The refusal for an object the caller cannot read: its existence is not revealed. */
export const unreadable = () => notFound('No such object, or it is not yours to read.')
