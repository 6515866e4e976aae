import { lt, sql } from 'drizzle-orm'
import { batchConcurrency, type Database } from '../db/client.ts'
import { createCoalescer } from '../db/coalesce.ts'
import { rateLimits } from '../db/schema.ts'

/** Fixed-window counters behind every rate limit. */
export interface WindowCounter {
  /** Adds `by` to `key`'s count in the current window of `windowMs`; the new count and ms left. */
  add(key: string, by: number, windowMs: number): Promise<{ count: number; ttlMs: number }>
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
 * Counters in the `rate_limits` table, shared by every server process on one PostgreSQL, so a
 * limit holds across processes. Additions that arrive together go in one statement (group
 * commit): `count = count + n … RETURNING count`, atomic across processes, and each request still
 * learns its own exact count, so no burst slips past a limit.
 */
export function databaseWindowCounter(db: Database): WindowCounter {
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
      // Old windows are useless: clear them now and then.
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
  return {
    async add(key, by, windowMs) {
      const { start, ttlMs } = windowOf(windowMs)
      return { count: await add({ key, by, windowStart: start }), ttlMs }
    },
  }
}
