import { and, eq, inArray, sql } from 'drizzle-orm'
import { copyRows } from '../db/bulk-copy.ts'
import { rowsOf, textArray, type Database } from '../db/client.ts'
import { objects } from '../db/schema.ts'
import { permsOf } from './acl.ts'
import type { ObjectChange } from './changes.ts'
import type { ObjectAccess, ObjectWrites } from './object-store.ts'
import { dropRelations } from './relations.ts'
import { toWire, type WireObject } from './rows.ts'
import type { Document } from './wire.ts'

// The server's own writes in a caller's transaction (contract syncs, sign-ins, wallets, the
// console): what they changed is kept and published by the unit of work once it committed.

/** A change made in a transaction, or the changes of a bulk write, built only when wanted. */
export type WrittenChange = ObjectChange | { className: string; build: () => ObjectChange[] }

/**
 * Rows from which `insertNew` copies them in (the database's cheapest way in) rather
 * than inserting them: below it the savepoint around the copy costs more than it saves.
 */
const BULK_COPY_ROWS = 50

export const created = (after: WireObject): ObjectChange => ({
  kind: 'create',
  className: after.className,
  objectId: after.objectId,
  before: null,
  after,
})

/** Writes of the server's own in a caller's transaction (`ObjectStore.transaction`). */
export class TransactionWrites implements ObjectWrites {
  constructor(
    private readonly tx: Database,
    /** What was changed, told to live listeners after the commit. */
    private readonly changes: WrittenChange[],
  ) {}

  /**
   * Writes objects of one class and owner whose id is free (others are left alone), all as ONE
   * parameter (a JSON array) unpacked by the database: thousands of bound parameters per
   * statement cost far more than the rows themselves. Returns the objects written.
   */
  async insertNew(
    className: string,
    access: ObjectAccess,
    rows: readonly { id: string; data: Document }[],
    at: Date,
  ): Promise<WireObject[]> {
    const written = this.#created(
      className,
      access,
      await this.#insert(className, access, rows, at),
      at,
    )
    for (const object of written) this.changes.push(created(object))
    return written
  }

  /**
   * `insertNew` for many rows whose objects the caller does not need (a contract sync's range):
   * returns how many were written. Their objects are built for live listeners and `afterSave`
   * triggers once committed, and only when the class has any.
   */
  async insertMany(
    className: string,
    access: ObjectAccess,
    rows: readonly { id: string; data: Document }[],
    at: Date,
  ): Promise<number> {
    const written = await this.#insert(className, access, rows, at)
    if (written.length)
      this.changes.push({
        className,
        build: () => this.#created(className, access, written, at).map(created),
      })
    return written.length
  }

  /** Writes the rows whose id is free; returns those written. */
  async #insert(
    className: string,
    access: ObjectAccess,
    rows: readonly { id: string; data: Document }[],
    at: Date,
  ): Promise<readonly { id: string; data: Document }[]> {
    if (rows.length === 0) return []
    const perms = permsOf(access.acl)
    if (rows.length >= BULK_COPY_ROWS) {
      const time = at.toISOString()
      const copied = await copyRows(
        this.tx,
        'objects',
        [
          'class_name',
          'id',
          'owner_id',
          'read_perm',
          'write_perm',
          'data',
          'created_at',
          'updated_at',
        ],
        rows.map((row) => [
          className,
          row.id,
          access.ownerId,
          perms.readPerm,
          perms.writePerm,
          JSON.stringify(row.data),
          time,
          time,
        ]),
        { referenced: { table: 'users', id: access.ownerId } },
      )
      if (copied) return rows
    }
    const input = JSON.stringify(rows.map((row) => ({ id: row.id, data: row.data })))
    const made = await this.tx.execute(sql`
      insert into ${objects}
        (class_name, id, owner_id, read_perm, write_perm, data, created_at, updated_at)
      select ${className}::text, r.id, ${access.ownerId}::text, ${textArray(perms.readPerm)},
        ${textArray(perms.writePerm)}, r.data, ${at.toISOString()}::timestamptz,
        ${at.toISOString()}::timestamptz
      from jsonb_to_recordset(${input}::jsonb) as r(id text, data jsonb)
      on conflict do nothing
      returning id`)
    const byKey = new Map(rows.map((row) => [row.id, row]))
    return rowsOf<{ id: string }>(made).map(({ id }) => byKey.get(id)!)
  }

  /** The objects just written, as told to live listeners after the commit. */
  #created(
    className: string,
    access: ObjectAccess,
    rows: readonly { id: string; data: Document }[],
    at: Date,
  ): WireObject[] {
    const time = at.toISOString()
    const publicRead = access.acl['*']?.read === true
    return rows.map((row) => ({
      objectId: row.id,
      className,
      owner: access.ownerId,
      acl: access.acl,
      publicRead,
      createdAt: time,
      updatedAt: time,
      data: row.data,
    }))
  }

  /** Deletes the objects of `className` among `ids`; returns them as they were. */
  async remove(className: string, ids: string[]): Promise<WireObject[]> {
    const rows = await this.tx
      .delete(objects)
      .where(and(eq(objects.className, className), inArray(objects.id, ids)))
      .returning()
    await dropRelations(this.tx, className, ids)
    const removed = rows.map(toWire)
    for (const before of removed)
      this.changes.push({
        kind: 'delete',
        className: before.className,
        objectId: before.objectId,
        before,
        after: null,
      })
    return removed
  }

  /**
   * Sets top-level `fields` in the objects of `className` among `ids`, whose values were
   * `fieldsBefore` (the same in each); returns them as they are now.
   */
  async merge(
    className: string,
    ids: string[],
    fields: Document,
    fieldsBefore: Document,
  ): Promise<WireObject[]> {
    const rows = await this.tx
      .update(objects)
      .set({
        data: sql`${objects.data} || ${JSON.stringify(fields)}::jsonb`,
        updatedAt: new Date(),
      })
      .where(and(eq(objects.className, className), inArray(objects.id, ids)))
      .returning()
    return this.updated(rows.map(toWire), () => fieldsBefore)
  }

  async mergeEach(
    className: string,
    updates: ReadonlyMap<string, { fields: Document; fieldsBefore: Document }>,
  ): Promise<WireObject[]> {
    if (!updates.size) return []
    // One JSON object of every id's fields; each row takes its own by its id.
    const byId = Object.fromEntries([...updates].map(([id, update]) => [id, update.fields]))
    const rows = await this.tx
      .update(objects)
      .set({
        data: sql`${objects.data} || (${JSON.stringify(byId)}::jsonb -> ${objects.id})`,
        updatedAt: new Date(),
      })
      .where(and(eq(objects.className, className), inArray(objects.id, [...updates.keys()])))
      .returning()
    return this.updated(rows.map(toWire), (id) => updates.get(id)?.fieldsBefore ?? {})
  }

  /** Keeps the update of each of `merged` for its live listeners, with what it was before. */
  private updated(merged: WireObject[], before: (id: string) => Document): WireObject[] {
    for (const after of merged)
      this.changes.push({
        kind: 'update',
        className: after.className,
        objectId: after.objectId,
        before: { ...after, data: { ...after.data, ...before(after.objectId) } },
        after,
      })
    return merged
  }
}
