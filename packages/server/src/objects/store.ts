import { and, count, eq, or, sql, type SQL } from 'drizzle-orm'
import type { Database } from '../db/client.ts'
import { objects } from '../db/schema.ts'
import { forbidden, notFound } from '../errors.ts'
import type { Document } from './wire.ts'

// The object store with its access rule: an object belongs to the user who created
// it; it is private unless the owner sets `publicRead`; only the owner changes or deletes it.
// The rule is part of every statement's WHERE clause, so no read-then-write race can bypass it.

type Row = typeof objects.$inferSelect

/** An object as the API answers it. */
export interface WireObject {
  objectId: string
  className: string
  owner: string
  publicRead: boolean
  createdAt: string
  updatedAt: string
  data: Document
}

export function toWire(row: Row): WireObject {
  return {
    objectId: row.id,
    className: row.className,
    owner: row.ownerId,
    publicRead: row.publicRead,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    data: row.data as Document,
  }
}

/** Objects of `className` that `viewerId` may read: their own, and public ones. */
export function readableBy(className: string, viewerId: string | undefined): SQL {
  const visible = viewerId
    ? or(eq(objects.ownerId, viewerId), eq(objects.publicRead, true))!
    : eq(objects.publicRead, true)
  return and(eq(objects.className, className), visible)!
}

const byId = (className: string, objectId: string) =>
  and(eq(objects.className, className), eq(objects.id, objectId))!

export async function getObject(
  db: Database,
  className: string,
  objectId: string,
  viewerId: string | undefined,
): Promise<WireObject | null> {
  const [row] = await db
    .select()
    .from(objects)
    .where(and(readableBy(className, viewerId), eq(objects.id, objectId)))
    .limit(1)
  return row ? toWire(row) : null
}

/** The refusal for an object the caller cannot read: its existence is not revealed. */
export const unreadable = () => notFound('No such object, or it is not yours to read.')

/**
 * Why a change was refused: 404 when the caller cannot even read the object, 403 when they can
 * read it but do not own it.
 */
async function refusal(db: Database, className: string, objectId: string, userId: string) {
  const readable = await getObject(db, className, objectId, userId)
  return readable ? forbidden('Only the owner can change or delete this object.') : unreadable()
}

/** Merges `data` into the owner's object (top-level fields) and/or sets `publicRead`. */
export async function updateObject(
  db: Database,
  input: {
    className: string
    objectId: string
    userId: string
    data?: Document
    publicRead?: boolean
  },
): Promise<WireObject> {
  const [row] = await db
    .update(objects)
    .set({
      ...(input.data ? { data: sql`${objects.data} || ${JSON.stringify(input.data)}::jsonb` } : {}),
      ...(input.publicRead === undefined ? {} : { publicRead: input.publicRead }),
      updatedAt: new Date(),
    })
    .where(and(byId(input.className, input.objectId), eq(objects.ownerId, input.userId)))
    .returning()
  if (!row) throw await refusal(db, input.className, input.objectId, input.userId)
  return toWire(row)
}

export async function deleteObject(
  db: Database,
  input: { className: string; objectId: string; userId: string },
): Promise<void> {
  const rows = await db
    .delete(objects)
    .where(and(byId(input.className, input.objectId), eq(objects.ownerId, input.userId)))
    .returning({ id: objects.id })
  if (!rows.length) throw await refusal(db, input.className, input.objectId, input.userId)
}

export interface QueryInput {
  className: string
  viewerId: string | undefined
  where: SQL | undefined
  orderBy: SQL[]
  limit: number
  skip: number
  count: boolean
}

export async function queryObjects(
  db: Database,
  input: QueryInput,
): Promise<{ results: WireObject[]; count?: number }> {
  const condition = and(readableBy(input.className, input.viewerId), input.where)
  const rows =
    input.limit === 0
      ? []
      : await db
          .select()
          .from(objects)
          .where(condition)
          .orderBy(...input.orderBy)
          .limit(input.limit)
          .offset(input.skip)
  const results = rows.map(toWire)
  if (!input.count) return { results }
  const [total] = await db.select({ n: count() }).from(objects).where(condition)
  return { results, count: Number(total?.n ?? 0) }
}
