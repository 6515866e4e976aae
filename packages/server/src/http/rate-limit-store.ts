import type { FastifyRateLimitStoreCtor } from '@fastify/rate-limit'
import type { Database } from '../db/client.ts'
import { databaseWindowCounter, memoryWindowCounter, type WindowCounter } from './window-counter.ts'

type Callback = (error: Error | null, result?: { current: number; ttl: number }) => void
interface StoreOptions {
  routeInfo?: { method?: string | string[]; url?: string }
}

/** Routes whose counters stay in this process: high volume, where a DB write per request costs too much. */
const inMemoryRoutes = (url: string) => url.startsWith('/api/events')

/**
 * A store for @fastify/rate-limit on the shared window counters, so every server process on one
 * PostgreSQL shares the limits of the sign-in endpoints (docs/decisions.md, "Rate limits"). Event
 * ingestion keeps per-process counters in memory (see `inMemoryRoutes`): its limit is a flood
 * guard, and a shared counter would cost a write per event.
 */
export function databaseRateLimitStore(db: Database): FastifyRateLimitStoreCtor {
  const shared = databaseWindowCounter(db)
  return class DatabaseRateLimitStore {
    private readonly prefix: string
    private readonly counter: WindowCounter
    constructor(raw: unknown = {}) {
      const options = raw as StoreOptions
      // (options is the plugin's merged route options; only routeInfo matters here)
      const url = options.routeInfo?.url ?? ''
      const method = [options.routeInfo?.method ?? ''].flat().join(',')
      this.prefix = `${method} ${url}|`
      this.counter = inMemoryRoutes(url) ? memoryWindowCounter() : shared
    }

    incr(key: string, callback: Callback, timeWindow: number): void {
      this.counter.add(this.prefix + key, 1, timeWindow).then(
        ({ count, ttlMs }) => callback(null, { current: count, ttl: ttlMs }),
        (error: Error) => callback(error),
      )
    }

    // Typed as route options, but the plugin passes its merged limits with `routeInfo`.
    child(options: unknown) {
      return new DatabaseRateLimitStore(options)
    }
  }
}
