import { and, eq, sql, type SQL } from 'drizzle-orm'
import { objects } from '../db/schema.ts'
import { forbidden, notFound } from '../errors.ts'

// The access rule, written once: an object's ACL (acl.ts) says who reads it and who writes it.
// A viewer's own list is `*`, their user id and `role:<name>` for every role they are in,
// directly or through the roles a role contains. The database works the roles out itself
// (`object_roles`, a recursive query over the roles' `users` and `roles` relations) inside each
// statement, so a change to a role counts from the next statement on, in every process. `*` and
// the user id are compared on their own, as constants: the planner then estimates from the
// column's statistics how many objects the viewer reads (a subquery's value it cannot know), and
// the roles are only looked up for objects those two do not open. Every
// statement of the store (fetches, pages, counts, exports, live matching, writes) takes its
// condition from here, in its WHERE clause, so no read-then-write race can bypass it.

/**
 * Who reads or changes an object: a user id, or `ANY_OWNER` for the master key and the admin
 * console, which read and change any object (and record each change in the audit log).
 */
export const ANY_OWNER: unique symbol = Symbol('any owner')
export type Changer = string | typeof ANY_OWNER

const everyone = sql`array['*']::text[]`

/** Whether `column` (a read or write list) lets `userId` in, as themselves, everyone or a role. */
function lets(column: typeof objects.readPerm | typeof objects.writePerm, userId: string): SQL {
  return sql`(${column} && array['*', ${userId}]::text[]
    or ${column} && (select object_roles(${userId})))`
}

/**
 * The objects `viewer` may read: a user those whose ACL lets them (or one of their roles, or
 * everyone) read, a visitor who is not signed in (undefined) the publicly readable ones, and
 * `ANY_OWNER` all of them (no condition). The viewer may also be an SQL value holding a user id
 * or null, when each row of one statement has its own viewer (fetches read together).
 */
export function visibleTo(viewer: Changer | SQL | undefined): SQL | undefined {
  if (viewer === ANY_OWNER) return undefined
  if (viewer === undefined) return sql`${objects.readPerm} && ${everyone}`
  if (typeof viewer === 'string') return lets(objects.readPerm, viewer)
  return sql`(${objects.readPerm} && ${everyone} or ${viewer} is not null
    and (${objects.readPerm} && array[${viewer}]::text[]
      or ${objects.readPerm} && object_roles(${viewer})))`
}

/** The objects `changer` may change or delete (see `visibleTo`); undefined for `ANY_OWNER`. */
export function writableBy(changer: Changer | undefined): SQL | undefined {
  if (changer === ANY_OWNER) return undefined
  if (changer === undefined) return sql`${objects.writePerm} && ${everyone}`
  return lets(objects.writePerm, changer)
}

/** Objects of `className` that `viewer` may read (see `visibleTo`). */
export function readableBy(className: string, viewer: Changer | undefined): SQL {
  return and(eq(objects.className, className), visibleTo(viewer))!
}

export const byId = (className: string, objectId: string): SQL =>
  and(eq(objects.className, className), eq(objects.id, objectId))!

/** The object if `changer` may change or delete it. */
export const changeableBy = (className: string, objectId: string, changer: Changer): SQL =>
  and(byId(className, objectId), writableBy(changer))!

/** The refusal for an object the caller cannot read: its existence is not revealed. */
export const unreadable = () => notFound('No such object, or it is not yours to read.')

/** The refusal for an object the caller reads but may not change. */
export const unwritable = () =>
  forbidden(
    "This object's ACL does not let you change it: ask someone with write access to change it or its ACL.",
  )
