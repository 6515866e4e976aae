import { lt, sql } from 'drizzle-orm'
import type { Database } from '../db/client.ts'
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

/**
 * Counters in the `rate_limits` table, shared by every server process on one PostgreSQL. One
 * upsert per addition (`count = count + n … RETURNING count`), atomic across processes.
 */
export function databaseWindowCounter(db: Database): WindowCounter {
  let additions = 0
  return {
    async add(key, by, windowMs) {
      const { now, start, ttlMs } = windowOf(windowMs)
      const [row] = await db
        .insert(rateLimits)
        .values({ key, windowStart: start, count: by })
        .onConflictDoUpdate({
          target: [rateLimits.key, rateLimits.windowStart],
          set: { count: sql`${rateLimits.count} + ${by}` },
        })
        .returning({ count: rateLimits.count })
      // Old windows are useless: clear them now and then.
      if (++additions % 1000 === 0) {
        db.delete(rateLimits)
          .where(lt(rateLimits.windowStart, now - 3_600_000))
          .catch(() => {})
      }
      return { count: row?.count ?? by, ttlMs }
    },
  }
}
