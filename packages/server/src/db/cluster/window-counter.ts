import { lt, sql } from 'drizzle-orm'
import { batchConcurrency, type Database } from '../client.ts'
import { createCoalescer } from '../coalesce.ts'
import { rateLimits } from '../schema.ts'

/** Fixed-window counters behind every rate limit. */
export interface WindowCounter {
  /** True when the counts are those of every process on the database, not this one's alone. */
  readonly shared: boolean
  /**
   * Adds `by` to `key`'s count in the current window of `windowMs`; the new count and ms left.
   * `max`, the limit the caller holds the count to, lets a shared counter reserve ahead.
   */
  add(
    key: string,
    by: number,
    windowMs: number,
    max?: number,
  ): Promise<{ count: number; ttlMs: number }>
}

function windowOf(windowMs: number) {
  const now = Date.now()
  const start = Math.floor(now / windowMs) * windowMs
  return { now, start, ttlMs: start + windowMs - now }
}

/** Counters of this process only: exact with one process, and free of database writes. */
export function memoryWindowCounter(): WindowCounter {
  const counts = new Map<string, { start: number; count: number }>()
  return {
    shared: false,
    async add(key, by, windowMs) {
      const { start, ttlMs } = windowOf(windowMs)
      const entry = counts.get(key)
      const count = entry && entry.start === start ? entry.count + by : by
      // Bounded: forget everything when the map grows too big (a fresh window for all).
      if (counts.size > 50_000) counts.clear()
      counts.set(key, { start, count })
      return { count, ttlMs }
    },
  }
}

interface Addition {
  key: string
  by: number
  windowStart: number
}

/**
 * Additions to the counters in the `rate_limits` table, shared by every server process on one
 * PostgreSQL, so a limit holds across processes; each resolves with the count it brought the key
 * to in its window. Additions that arrive together go in one statement (group
 * commit): `count = count + n … RETURNING count`, atomic across processes, and each request still
 * learns its own exact count, so no burst slips past a limit.
 */
export function databaseCounts(
  db: Database,
): (key: string, by: number, windowStart: number) => Promise<number> {
  let statements = 0
  const add = createCoalescer(
    async (items: Addition[]) => {
      // One row per key and window (a statement may not update a row twice), with the sum.
      const rows = new Map<string, Addition>()
      for (const item of items) {
        const id = `${item.windowStart}|${item.key}`
        const row = rows.get(id)
        rows.set(id, row ? { ...row, by: row.by + item.by } : { ...item })
      }
      // In key order: statements of overlapping batches (and of other processes) lock the same
      // rows in the same order, so they cannot deadlock.
      const ordered = [...rows.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      const totals = await db
        .insert(rateLimits)
        .values(ordered.map(([, r]) => ({ key: r.key, windowStart: r.windowStart, count: r.by })))
        .onConflictDoUpdate({
          target: [rateLimits.key, rateLimits.windowStart],
          set: { count: sql`${rateLimits.count} + excluded.count` },
        })
        .returning({
          key: rateLimits.key,
          windowStart: rateLimits.windowStart,
          count: rateLimits.count,
        })
      const total = new Map(totals.map((t) => [`${t.windowStart}|${t.key}`, t.count]))
      // Old windows are useless: clear them now and then (a failed clear is tried again 1000
      // statements later; the rows only take space).
      if (++statements % 1000 === 0) {
        db.delete(rateLimits)
          .where(lt(rateLimits.windowStart, Date.now() - 3_600_000))
          .catch(() => {})
      }
      // Each addition's own count: the total less what later additions of the same key added.
      const later = new Map<string, number>()
      const counts = new Array<number>(items.length)
      for (let index = items.length - 1; index >= 0; index--) {
        const item = items[index]!
        const id = `${item.windowStart}|${item.key}`
        const after = later.get(id) ?? 0
        counts[index] = (total.get(id) ?? item.by) - after
        later.set(id, after + item.by)
      }
      return counts
    },
    200,
    batchConcurrency(db),
  )
  return (key: string, by: number, windowStart: number) => add({ key, by, windowStart })
}

/** Counters in the `rate_limits` table, shared by every process, reserving ahead (`leasedCounter`). */
export const databaseWindowCounter = (db: Database): WindowCounter =>
  leasedCounter(databaseCounts(db))

/** Counts of one key and window this process reserved and has not handed out yet. */
interface Lease {
  windowStart: number
  /** The next count to hand out. */
  next: number
  /** The last count reserved. */
  end: number
}

/**
 * Reserving ahead: a key far from its limit takes a block of counts from the database at once
 * (up to an eighth of what is left of its limit, at most 64) and hands them out from memory, so
 * a busy key costs one statement per block instead of one per request. Blocks of different
 * processes never overlap, so together they never let more than the limit through; what a
 * process reserved and did not use is lost for the window, at most an eighth of what was left
 * each time, which makes the limit a little stricter for a client that moves between processes,
 * never looser. Near the limit (or with small limits) every request goes to the database as
 * before, so counts there are exact; past it, requests are refused without one.
 */
export function leasedCounter(
  reserve: (key: string, by: number, windowStart: number) => Promise<number>,
): WindowCounter {
  const leases = new Map<string, Lease>()
  const refills = new Map<string, Promise<unknown>>()
  return {
    shared: true,
    async add(key, by, windowMs, max) {
      for (;;) {
        const { start, ttlMs } = windowOf(windowMs)
        const lease = leases.get(key)
        if (lease && lease.windowStart === start && lease.next + by - 1 <= lease.end) {
          const count = lease.next + by - 1
          lease.next += by
          return { count, ttlMs }
        }
        // Past the limit in this window, every request is refused whatever else happens: count it
        // here, without a statement (a flood past its limit costs the database nothing).
        if (max !== undefined && lease && lease.windowStart === start && lease.end >= max) {
          const count = lease.next + by - 1
          lease.next += by
          return { count, ttlMs }
        }
        // Another request of this key is already reserving: wait for its block (its failure is
        // that request's to report; this one tries to reserve on its own next).
        const refill = refills.get(key)
        if (refill) {
          await refill.catch(() => {})
          continue
        }
        const known = lease && lease.windowStart === start ? lease.end : 0
        const ahead = max === undefined ? 0 : Math.min(63, Math.floor((max - known - by) / 8))
        const size = by + Math.max(0, ahead)
        const reserving = reserve(key, size, start)
        refills.set(key, reserving)
        let end: number
        try {
          end = await reserving
        } finally {
          refills.delete(key)
        }
        const count = end - size + by
        // Bounded: forget every block when the map grows too big (their counts are lost).
        if (leases.size > 50_000) leases.clear()
        leases.set(key, { windowStart: start, next: count + 1, end })
        return { count, ttlMs }
      }
    },
  }
}
