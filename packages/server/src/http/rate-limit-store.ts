import { lt, sql } from 'drizzle-orm'
import type { FastifyRateLimitStoreCtor } from '@fastify/rate-limit'
import type { Database } from '../db/client.ts'
import { rateLimits } from '../db/schema.ts'

type Callback = (error: Error | null, result?: { current: number; ttl: number }) => void
interface StoreOptions {
  routeInfo?: { method?: string | string[]; url?: string }
}

/** Routes whose counters stay in this process: high volume, where a DB write per request costs too much. */
const inMemoryRoutes = (url: string) => url.startsWith('/api/events')

/**
 * A store for @fastify/rate-limit that keeps fixed-window counters in the `rate_limits` table, so
 * every server process on one PostgreSQL shares the limits of the sign-in endpoints (docs/decisions.md,
 * "Rate limits"). One upsert per request: `count = count + 1 … RETURNING count`, atomic across
 * processes. Event ingestion keeps per-process counters in memory (see `inMemoryRoutes`): its
 * limit is a flood guard, and a shared counter would cost a write per event.
 */
export function databaseRateLimitStore(db: Database): FastifyRateLimitStoreCtor {
  let calls = 0
  return class DatabaseRateLimitStore {
    private readonly prefix: string
    private readonly memory: Map<string, { windowStart: number; count: number }> | undefined
    constructor(raw: unknown = {}) {
      const options = raw as StoreOptions
      // (options is the plugin's merged route options; only routeInfo matters here)
      const url = options.routeInfo?.url ?? ''
      const method = [options.routeInfo?.method ?? ''].flat().join(',')
      this.prefix = `${method} ${url}|`
      this.memory = inMemoryRoutes(url) ? new Map() : undefined
    }

    incr(key: string, callback: Callback, timeWindow: number): void {
      const now = Date.now()
      const windowStart = Math.floor(now / timeWindow) * timeWindow
      const ttl = windowStart + timeWindow - now
      if (this.memory) {
        const entry = this.memory.get(key)
        const next =
          entry && entry.windowStart === windowStart
            ? { windowStart, count: entry.count + 1 }
            : { windowStart, count: 1 }
        // Bounded: forget everything when the map grows too big (a fresh window for all).
        if (this.memory.size > 50_000) this.memory.clear()
        this.memory.set(key, next)
        return callback(null, { current: next.count, ttl })
      }
      db.insert(rateLimits)
        .values({ key: this.prefix + key, windowStart, count: 1 })
        .onConflictDoUpdate({
          target: [rateLimits.key, rateLimits.windowStart],
          set: { count: sql`${rateLimits.count} + 1` },
        })
        .returning({ count: rateLimits.count })
        .then(
          ([row]) => callback(null, { current: row?.count ?? 1, ttl }),
          (error: Error) => callback(error),
        )
      // Old windows are useless: clear them now and then.
      if (++calls % 1000 === 0) {
        db.delete(rateLimits)
          .where(lt(rateLimits.windowStart, now - 3_600_000))
          .catch(() => {})
      }
    }

    // Typed as route options, but the plugin passes its merged limits with `routeInfo`.
    child(options: unknown) {
      return new DatabaseRateLimitStore(options)
    }
  }
}
