import { and, eq, inArray, lt, lte, gt, desc, sql } from 'drizzle-orm'
import type { Database } from '../db/client.ts'
import { eventSyncs, objects, syncBlocks, syncedEvents, users } from '../db/schema.ts'
import { publishChanges, type ObjectChange } from '../objects/changes.ts'
import { toWire } from '../objects/store.ts'
import type { Document } from '../objects/wire.ts'
import type { Sync } from './definition.ts'

// What a sync writes, each step in ONE transaction: the rows of a block range (a row whose id
// exists is left alone, so a log is never written twice), rows confirmed by the new head, rows
// of blocks a reorg dropped removed, the hashes of recent blocks, and the next block to read.
// A crash anywhere loses nothing: the sync resumes from the last committed `next_block`.

/** Synced rows belong to this user, who never signs in: no one else can change them. */
export const SYNC_OWNER = {
  id: 'portico-sync',
  address: '0x0000000000000000000000000000000000000000',
}

/** Recent blocks whose hashes are kept (beyond the confirmations) to find where a reorg began. */
export const KEPT_BLOCKS = 64n

export interface SyncRow {
  id: string
  blockNumber: bigint
  confirmed: boolean
  data: Document
}

/** The block a sync reads next (its start block the first time), and the sync's owner row. */
export async function startProgress(db: Database, sync: Sync): Promise<bigint> {
  await db.insert(users).values(SYNC_OWNER).onConflictDoNothing()
  await db
    .insert(eventSyncs)
    .values({
      name: sync.name,
      chainId: sync.chainId,
      className: sync.className,
      nextBlock: sync.startBlock,
    })
    .onConflictDoNothing()
  const [row] = await db.select().from(eventSyncs).where(eq(eventSyncs.name, sync.name))
  return row!.nextBlock
}

/** The latest recorded blocks, newest first. */
export function recentBlocks(db: Database, name: string, limit = Number(KEPT_BLOCKS)) {
  return db
    .select({ number: syncBlocks.number, hash: syncBlocks.hash })
    .from(syncBlocks)
    .where(eq(syncBlocks.name, name))
    .orderBy(desc(syncBlocks.number))
    .limit(limit)
}

export interface RangeCommit {
  /** A reorg: rows and block hashes above this block are dropped first. */
  dropAfter?: bigint | undefined
  rows: SyncRow[]
  /** Hashes of the recent blocks read in this range. */
  blocks: { number: bigint; hash: string }[]
  /** Rows of blocks up to here are confirmed now. */
  confirmThrough: bigint
  nextBlock: bigint
  head: bigint
}

export async function commitRange(db: Database, sync: Sync, commit: RangeCommit): Promise<number> {
  const changes: ObjectChange[] = []
  const inserted = await db.transaction(async (tx) => {
    if (commit.dropAfter !== undefined) {
      const dropped = await tx
        .delete(syncedEvents)
        .where(
          and(eq(syncedEvents.name, sync.name), gt(syncedEvents.blockNumber, commit.dropAfter)),
        )
        .returning({ id: syncedEvents.objectId })
      if (dropped.length) {
        const rows = await tx
          .delete(objects)
          .where(
            and(
              eq(objects.className, sync.className),
              inArray(
                objects.id,
                dropped.map((d) => d.id),
              ),
            ),
          )
          .returning()
        for (const row of rows) {
          const before = toWire(row)
          changes.push({
            kind: 'delete',
            className: row.className,
            objectId: row.id,
            before,
            after: null,
          })
        }
      }
      await tx
        .delete(syncBlocks)
        .where(and(eq(syncBlocks.name, sync.name), gt(syncBlocks.number, commit.dropAfter)))
    }
    let count = 0
    // In slices: one statement takes at most 65535 parameters.
    for (let at = 0; at < commit.rows.length; at += 1_000) {
      const slice = commit.rows.slice(at, at + 1_000)
      const now = new Date()
      const made = await tx
        .insert(objects)
        .values(
          slice.map((row) => ({
            className: sync.className,
            id: row.id,
            ownerId: SYNC_OWNER.id,
            publicRead: sync.publicRead,
            data: row.data,
            createdAt: now,
            updatedAt: now,
          })),
        )
        .onConflictDoNothing()
        .returning()
      count += made.length
      for (const row of made) {
        changes.push({
          kind: 'create',
          className: row.className,
          objectId: row.id,
          before: null,
          after: toWire(row),
        })
      }
      await tx
        .insert(syncedEvents)
        .values(
          slice.map((row) => ({
            name: sync.name,
            objectId: row.id,
            blockNumber: row.blockNumber,
            confirmed: row.confirmed,
          })),
        )
        .onConflictDoNothing()
    }
    const confirming = await tx
      .update(syncedEvents)
      .set({ confirmed: true })
      .where(
        and(
          eq(syncedEvents.name, sync.name),
          eq(syncedEvents.confirmed, false),
          lte(syncedEvents.blockNumber, commit.confirmThrough),
        ),
      )
      .returning({ id: syncedEvents.objectId })
    if (confirming.length) {
      const rows = await tx
        .update(objects)
        .set({ data: sql`${objects.data} || '{"confirmed":true}'::jsonb`, updatedAt: new Date() })
        .where(
          and(
            eq(objects.className, sync.className),
            inArray(
              objects.id,
              confirming.map((c) => c.id),
            ),
          ),
        )
        .returning()
      for (const row of rows) {
        const after = toWire(row)
        const before = { ...after, data: { ...after.data, confirmed: false } }
        changes.push({ kind: 'update', className: row.className, objectId: row.id, before, after })
      }
    }
    if (commit.blocks.length) {
      await tx
        .insert(syncBlocks)
        .values(commit.blocks.map((block) => ({ name: sync.name, ...block })))
        .onConflictDoUpdate({
          target: [syncBlocks.name, syncBlocks.number],
          set: { hash: sql`excluded.hash` },
        })
    }
    await tx
      .delete(syncBlocks)
      .where(
        and(
          eq(syncBlocks.name, sync.name),
          lt(syncBlocks.number, commit.head - KEPT_BLOCKS - BigInt(sync.confirmations)),
        ),
      )
    await tx
      .update(eventSyncs)
      .set({
        nextBlock: commit.nextBlock,
        head: commit.head,
        rows: sql`${eventSyncs.rows} + ${count}`,
        updatedAt: new Date(),
      })
      .where(eq(eventSyncs.name, sync.name))
    return count
  })
  await publishChanges(db, changes)
  return inserted
}

/** Every sync's progress, as kept in the database (for `portico sync status`). */
export function allProgress(db: Database) {
  return db.select().from(eventSyncs).orderBy(eventSyncs.name)
}
