import { PLACEHOLDER_USERS } from '@portico/sdk/wire'
import { and, eq, lt, lte, gt, desc, sql } from 'drizzle-orm'
import type { Database } from '../db/client.ts'
import { eventSyncs, syncBlocks, syncedEvents, users } from '../db/schema.ts'
import type { ObjectStore } from '../objects/object-store.ts'
import type { Document } from '../objects/wire.ts'
import type { Sync } from './definition.ts'

// What a sync writes, each step in ONE transaction: the rows of a block range (a row whose id
// exists is left alone, so a log is never written twice), rows confirmed by the new head, rows
// of blocks a reorg dropped removed, the hashes of recent blocks, and the next block to read.
// A crash anywhere loses nothing: the sync resumes from the last committed `next_block`.
// `synced_events` lists the rows a later commit may still change: those not confirmed yet and
// those of blocks whose hashes are kept (a reorg can reach no further back). The rows of older
// blocks, confirmed when written (most of a backfill), are not listed.

/** Synced rows belong to this user, who never signs in: no one else can change them. */
export const SYNC_OWNER = { id: PLACEHOLDER_USERS.sync.id, address: PLACEHOLDER_USERS.sync.address }

/** Recent blocks whose hashes are kept (beyond the confirmations) to find where a reorg began. */
export const KEPT_BLOCKS = 64n

export interface SyncRow {
  id: string
  blockNumber: bigint
  confirmed: boolean
  data: Document
}

/** The stored progress of the syncs (their `event_syncs` rows), for the console's list. */
export class SyncProgress {
  readonly #db: Database

  constructor(db: Database) {
    this.#db = db
  }

  all() {
    return this.#db.select().from(eventSyncs)
  }
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
  /** Every row up to here is confirmed already (undefined: not known, all are looked at). */
  confirmFrom?: bigint | undefined
  /** The lowest block whose hash is kept: rows from here up are listed for reorgs. */
  keepFrom: bigint
  nextBlock: bigint
  head: bigint
}

export function commitRange(
  objects: ObjectStore,
  sync: Sync,
  commit: RangeCommit,
): Promise<number> {
  return objects.transaction(async (tx, writes) => {
    if (commit.dropAfter !== undefined) {
      const dropped = await tx
        .delete(syncedEvents)
        .where(
          and(eq(syncedEvents.name, sync.name), gt(syncedEvents.blockNumber, commit.dropAfter)),
        )
        .returning({ id: syncedEvents.objectId })
      if (dropped.length)
        await writes.remove(
          sync.className,
          dropped.map((d) => d.id),
        )
      await tx
        .delete(syncBlocks)
        .where(and(eq(syncBlocks.name, sync.name), gt(syncBlocks.number, commit.dropAfter)))
    }
    let count = 0
    if (commit.rows.length) {
      count = await writes.insertMany(
        sync.className,
        { ownerId: SYNC_OWNER.id, acl: sync.publicRead ? { '*': { read: true } } : {} },
        commit.rows,
        new Date(),
      )
      const listed = commit.rows.filter(
        (row) => !row.confirmed || row.blockNumber >= commit.keepFrom,
      )
      if (listed.length) {
        // Three arrays, each ONE parameter: thousands of bound parameters per statement cost
        // far more than the rows themselves.
        await tx.execute(sql`
          insert into ${syncedEvents} (name, object_id, block_number, confirmed)
          select ${sync.name}::text, r.id, r.block, r.confirmed
          from unnest(${pgArray(listed.map((row) => row.id))}::text[],
            ${pgArray(listed.map((row) => row.blockNumber))}::bigint[],
            ${pgArray(listed.map((row) => row.confirmed))}::boolean[]) as r(id, block, confirmed)
          on conflict do nothing`)
      }
    }
    const confirming = await tx
      .update(syncedEvents)
      .set({ confirmed: true })
      .where(
        and(
          eq(syncedEvents.name, sync.name),
          eq(syncedEvents.confirmed, false),
          lte(syncedEvents.blockNumber, commit.confirmThrough),
          // Only the blocks above those confirmed already: the index on (name, block) then
          // reads a few rows, not every row of the sync.
          commit.confirmFrom === undefined
            ? undefined
            : gt(syncedEvents.blockNumber, commit.confirmFrom),
        ),
      )
      .returning({ id: syncedEvents.objectId })
    if (confirming.length)
      await writes.merge(
        sync.className,
        confirming.map((c) => c.id),
        { confirmed: true },
        { confirmed: false },
      )
    await keepBlocks(
      tx,
      sync.name,
      commit.blocks,
      commit.head - KEPT_BLOCKS - BigInt(sync.confirmations),
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
}

/**
 * Records the hashes of recent blocks read under `name` (a reorg is found where one changed) and
 * forgets those below `below`, which no reorg reaches.
 */
export async function keepBlocks(
  tx: Database,
  name: string,
  blocks: readonly { number: bigint; hash: string }[],
  below: bigint,
): Promise<void> {
  if (blocks.length)
    await tx
      .insert(syncBlocks)
      .values(blocks.map((block) => ({ name, ...block })))
      .onConflictDoUpdate({
        target: [syncBlocks.name, syncBlocks.number],
        set: { hash: sql`excluded.hash` },
      })
  await tx.delete(syncBlocks).where(and(eq(syncBlocks.name, name), lt(syncBlocks.number, below)))
}

/**
 * A PostgreSQL array literal of ids (letters, digits, `-`, `_`), block numbers or booleans:
 * nothing in them needs quoting.
 */
function pgArray(values: readonly (string | bigint | boolean)[]): string {
  return `{${values.join(',')}}`
}
