import type { FastifyRateLimitStoreCtor } from '@fastify/rate-limit'
import type { WindowCounter } from '../db/cluster/window-counter.ts'

type Callback = (error: Error | null, result?: { current: number; ttl: number }) => void
interface StoreOptions {
  routeInfo?: { method?: string | string[]; url?: string }
  max?: unknown
}

/**
 * A store for @fastify/rate-limit on the app's window counters: with the database counters, every
 * server process on one PostgreSQL shares every limit (docs/decisions.md, "Rate limits").
 * Concurrent requests share one counter statement, which keeps event ingestion cheap.
 */
export function counterRateLimitStore(shared: WindowCounter): FastifyRateLimitStoreCtor {
  return class DatabaseRateLimitStore {
    private readonly prefix: string
    private readonly max: number | undefined
    constructor(raw: unknown = {}) {
      const options = raw as StoreOptions
      // (options is the plugin's merged route options: the route and its limit matter here)
      const url = options.routeInfo?.url ?? ''
      const method = [options.routeInfo?.method ?? ''].flat().join(',')
      this.prefix = `${method} ${url}|`
      this.max = typeof options.max === 'number' ? options.max : undefined
    }

    incr(key: string, callback: Callback, timeWindow: number): void {
      shared.add(this.prefix + key, 1, timeWindow, this.max).then(
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

/**
 * The store for @fastify/rate-limit's route limits on `counter`: the shared counters when several
 * processes count together; undefined (the plugin's own store in memory) for one process alone.
 */
export const rateLimitStore = (counter: WindowCounter): FastifyRateLimitStoreCtor | undefined =>
  counter.shared ? counterRateLimitStore(counter) : undefined
