import { and, eq, or, sql, type SQL } from 'drizzle-orm'
import { batchConcurrency, type Database } from '../db/client.ts'
import { createCoalescer } from '../db/coalesce.ts'
import { objects } from '../db/schema.ts'
import { forbidden, notFound } from '../errors.ts'
import { publishChanges } from './changes.ts'
import type { Document } from './wire.ts'

// The object store with its access rule: an object belongs to the user who created
// it; it is private unless the owner sets `publicRead`; only the owner changes or deletes it.
// The rule is part of every statement's WHERE clause, so no read-then-write race can bypass it.

type Row = Omit<typeof objects.$inferSelect, 'size'>

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

/**
 * Who reads or changes an object: its owner's user id, or `ANY_OWNER` for the admin console,
 * which reads and changes any object (and records each change in its audit log).
 */
export const ANY_OWNER: unique symbol = Symbol('any owner')
export type Changer = string | typeof ANY_OWNER

/** Objects of `className` that `viewerId` may read: their own, and public ones. */
export function readableBy(className: string, viewerId: Changer | undefined): SQL {
  if (viewerId === ANY_OWNER) return eq(objects.className, className)
  const visible = viewerId
    ? or(eq(objects.ownerId, viewerId), eq(objects.publicRead, true))!
    : eq(objects.publicRead, true)
  return and(eq(objects.className, className), visible)!
}

const byId = (className: string, objectId: string) =>
  and(eq(objects.className, className), eq(objects.id, objectId))!

/**
 * One object, if `viewerId` may read it. Fetches that arrive together share one statement (as
 * session lookups do): on the embedded database a statement's fixed cost was most of a fetch.
 * Each fetch is matched with its own viewer, by its position in the batch.
 */
export function getObject(
  db: Database,
  className: string,
  objectId: string,
  viewerId: string | undefined,
): Promise<WireObject | null> {
  let fetch = fetches.get(db)
  if (!fetch) {
    fetch = createCoalescer((keys: FetchKey[]) => fetchObjects(db, keys), 200, batchConcurrency(db))
    fetches.set(db, fetch)
  }
  return fetch({ className, objectId, viewerId })
}

interface FetchKey {
  className: string
  objectId: string
  viewerId: string | undefined
}

const fetches = new WeakMap<Database, (key: FetchKey) => Promise<WireObject | null>>()

async function fetchObjects(db: Database, keys: FetchKey[]): Promise<(WireObject | null)[]> {
  const input = JSON.stringify(
    keys.map((key, n) => ({ n, c: key.className, i: key.objectId, v: key.viewerId ?? null })),
  )
  const result = await db.execute(sql`
    select json_agg(json_build_array(k.n, o.id, o.owner_id, o.public_read, o.created_at,
      o.updated_at, o.data)) as rows
    from jsonb_to_recordset(${input}::jsonb) as k(n int, c text, i text, v text)
    join ${objects} o on o.class_name = k.c and o.id = k.i and (o.public_read or o.owner_id = k.v)`)
  const found: (WireObject | null)[] = keys.map(() => null)
  for (const [n, ...row] of packedRows<[number, ...PackedRow]>(result))
    found[n] = unpack(keys[n]!.className, row)
  return found
}

/** An object as the read statements pack it into one JSON value (here and in `pages.ts`). */
export type PackedRow = [string, string, boolean, string, string, unknown]

export function packedRows<T>(result: unknown): T[] {
  const [answer] = (result as { rows: { rows: unknown }[] }).rows
  const rows = typeof answer?.rows === 'string' ? JSON.parse(answer.rows) : answer?.rows
  return (rows ?? []) as T[]
}

export function unpack(
  className: string,
  [id, owner, publicRead, createdAt, updatedAt, data]: PackedRow,
): WireObject {
  return {
    objectId: id,
    className,
    owner,
    publicRead,
    createdAt: new Date(createdAt).toISOString(),
    updatedAt: new Date(updatedAt).toISOString(),
    data: data as Document,
  }
}

/** The refusal for an object the caller cannot read: its existence is not revealed. */
export const unreadable = () => notFound('No such object, or it is not yours to read.')

const changeableBy = (className: string, objectId: string, userId: Changer) =>
  userId === ANY_OWNER
    ? byId(className, objectId)
    : and(byId(className, objectId), eq(objects.ownerId, userId))!

/**
 * Why a change was refused: 404 when the caller cannot even read the object, 403 when they can
 * read it but do not own it.
 */
async function refusal(db: Database, className: string, objectId: string, userId: Changer) {
  if (userId === ANY_OWNER) return notFound('No such object.')
  const readable = await getObject(db, className, objectId, userId)
  return readable ? forbidden('Only the owner can change or delete this object.') : unreadable()
}

/**
 * Changes the owner's object in one transaction: the row is locked, `modify` computes the new
 * document and/or `publicRead` from the current object, and the result is written and told to
 * live listeners. Refused (404 or 403, see `refusal`) unless `userId` owns it.
 */
export async function modifyObject(
  db: Database,
  input: { className: string; objectId: string; userId: Changer },
  modify: (current: WireObject) => { data?: Document; publicRead?: boolean; ownerId?: string },
): Promise<{ before: WireObject; after: WireObject }> {
  const changed = await db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(objects)
      .where(changeableBy(input.className, input.objectId, input.userId))
      .for('update')
    if (!row) return null
    const before = toWire(row)
    const next = modify(before)
    const [updated] = await tx
      .update(objects)
      .set({
        ...(next.data ? { data: next.data } : {}),
        ...(next.publicRead === undefined ? {} : { publicRead: next.publicRead }),
        ...(next.ownerId === undefined ? {} : { ownerId: next.ownerId }),
        updatedAt: new Date(),
      })
      .where(byId(input.className, input.objectId))
      .returning()
    return { before, after: toWire(updated!) }
  })
  if (!changed) throw await refusal(db, input.className, input.objectId, input.userId)
  await publishChanges(db, [
    { kind: 'update', className: input.className, objectId: input.objectId, ...changed },
  ])
  return changed
}

/** Merges `data` into the owner's object (top-level fields) and/or sets `publicRead`. */
export function updateObject(
  db: Database,
  input: {
    className: string
    objectId: string
    userId: string
    data?: Document
    publicRead?: boolean
  },
): Promise<WireObject> {
  return modifyObject(db, input, (current) => ({
    ...(input.data ? { data: { ...current.data, ...input.data } } : {}),
    ...(input.publicRead === undefined ? {} : { publicRead: input.publicRead }),
  })).then((changed) => changed.after)
}

/** Deletes an object; returns it as it was. */
export async function deleteObject(
  db: Database,
  input: { className: string; objectId: string; userId: Changer },
): Promise<WireObject> {
  const rows = await db
    .delete(objects)
    .where(changeableBy(input.className, input.objectId, input.userId))
    .returning()
  if (!rows.length) throw await refusal(db, input.className, input.objectId, input.userId)
  await publishChanges(db, [
    {
      kind: 'delete',
      className: input.className,
      objectId: input.objectId,
      before: toWire(rows[0]!),
      after: null,
    },
  ])
  return toWire(rows[0]!)
}

/** An object whatever its access rule, for the server's own use (never answered as such). */
export async function readObjectAsServer(
  db: Database,
  keys: { className: string; objectId: string },
): Promise<WireObject | null> {
  const [row] = await db.select().from(objects).where(byId(keys.className, keys.objectId)).limit(1)
  return row ? toWire(row) : null
}

/** The objects among `ids` (any classes) that `viewerId` may read, by class and id. */
export async function getReadableObjects(
  db: Database,
  keys: { className: string; objectId: string }[],
  viewerId: string | undefined,
): Promise<Map<string, WireObject>> {
  const found = new Map<string, WireObject>()
  if (keys.length === 0) return found
  const rows = await db
    .select()
    .from(objects)
    .where(
      or(...keys.map((k) => and(readableBy(k.className, viewerId), eq(objects.id, k.objectId)))),
    )
  for (const row of rows) found.set(`${row.className}/${row.id}`, toWire(row))
  return found
}
