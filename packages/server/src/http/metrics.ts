import { createHash, timingSafeEqual } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { Counter, Gauge, Histogram, Registry } from 'prom-client'
import { batchSizes } from '../db/coalesce.ts'
import type { DatabaseHandle } from '../db/client.ts'
import { unauthorized } from '../errors.ts'

declare module 'fastify' {
  interface FastifyInstance {
    /** Where the RPC gateway reports upstream attempts (chain, outcome, seconds). */
    upstreamAttempt(chainId: number, outcome: string, seconds: number): void
    /** Counts a gateway call that the answer cache could serve, and whether it did. */
    rpcCacheLookup(chainId: number, hit: boolean): void
    /** Records a request answered outside Fastify's hooks (the RPC gateway's lean path). */
    observeRequest(route: string, method: string, status: number, seconds: number): void
  }
}

/**
 * `GET /api/metrics` in the Prometheus text format, off unless METRICS_TOKEN is set (then it asks
 * for `Authorization: Bearer <token>`): requests and latency by route and status, rate-limit
 * refusals, the PostgreSQL pool, group-commit batch sizes, and the RPC gateway's upstream
 * attempts per chain. One registry per server, so tests and several apps in one process do not
 * mix their figures.
 */
export const metricsPlugin = fp(
  async (
    app: FastifyInstance,
    opts: {
      token: string | undefined
      pool: () => DatabaseHandle['pool']
      /** Live-query sockets and subscriptions of this process. */
      live: () => { sockets: number; subscriptions: number }
    },
  ) => {
    const registry = new Registry()
    const requests = new Histogram({
      name: 'portico_http_request_duration_seconds',
      help: 'HTTP requests by route, method and status, and how long they took',
      labelNames: ['route', 'method', 'status'],
      buckets: [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5],
      registers: [registry],
    })
    const refusals = new Counter({
      name: 'portico_rate_limit_refusals_total',
      help: 'Requests refused by a rate limit (429), by route',
      labelNames: ['route'],
      registers: [registry],
    })
    const batches = new Histogram({
      name: 'portico_group_commit_batch_size',
      help: 'Writes per group-commit batch',
      buckets: [1, 2, 5, 10, 20, 50, 100, 200],
      registers: [registry],
    })
    const upstream = new Histogram({
      name: 'portico_rpc_upstream_attempt_seconds',
      help: 'RPC gateway attempts to upstream nodes, by chain and outcome',
      labelNames: ['chain', 'outcome'],
      buckets: [0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 30],
      registers: [registry],
    })
    const cacheLookups = new Counter({
      name: 'portico_rpc_cache_lookups_total',
      help: 'RPC gateway calls whose answer never changes, by chain and whether the cache had it',
      labelNames: ['chain', 'outcome'],
      registers: [registry],
    })
    new Gauge({
      name: 'portico_live_sockets',
      help: 'Live-query WebSockets open on this process',
      registers: [registry],
      collect() {
        this.set(opts.live().sockets)
      },
    })
    new Gauge({
      name: 'portico_live_subscriptions',
      help: 'Live-query subscriptions held by this process',
      registers: [registry],
      collect() {
        this.set(opts.live().subscriptions)
      },
    })
    new Gauge({
      name: 'portico_db_pool_connections',
      help: 'PostgreSQL pool connections by state (embedded database: none)',
      labelNames: ['state'],
      registers: [registry],
      collect() {
        const pool = opts.pool()
        if (!pool) return
        this.set({ state: 'total' }, pool.total)
        this.set({ state: 'idle' }, pool.idle)
        this.set({ state: 'waiting' }, pool.waiting)
      },
    })

    const observeBatch = (size: number) => batches.observe(size)
    batchSizes.add(observeBatch)
    app.addHook('onClose', async () => batchSizes.delete(observeBatch))
    // Each series' handle made once: labelling costs more than observing, and these run per call.
    const lookups = new Map<string, ReturnType<typeof cacheLookups.labels>>()
    app.decorate('rpcCacheLookup', (chainId: number, hit: boolean) => {
      const name = `${chainId} ${hit}`
      let handle = lookups.get(name)
      if (!handle)
        lookups.set(name, (handle = cacheLookups.labels(String(chainId), hit ? 'hit' : 'miss')))
      handle.inc()
    })
    const attempts = new Map<string, ReturnType<typeof upstream.labels>>()
    app.decorate('upstreamAttempt', (chainId: number, outcome: string, seconds: number) => {
      const name = `${chainId} ${outcome}`
      let handle = attempts.get(name)
      if (!handle) attempts.set(name, (handle = upstream.labels(String(chainId), outcome)))
      handle.observe(seconds)
    })
    const series = new Map<string, ReturnType<typeof requests.labels>>()
    const observeRequest = (route: string, method: string, status: number, seconds: number) => {
      const name = `${route} ${method} ${status}`
      let handle = series.get(name)
      if (!handle) series.set(name, (handle = requests.labels(route, method, String(status))))
      handle.observe(seconds)
      if (status === 429) refusals.inc({ route })
    }
    app.decorate('observeRequest', observeRequest)
    app.addHook('onResponse', async (request, reply) => {
      const route = request.routeOptions.url ?? 'unknown'
      if (route === '/api/metrics') return
      observeRequest(route, request.method, reply.statusCode, reply.elapsedTime / 1000)
    })

    app.get(
      '/api/metrics',
      {
        schema: {
          tags: ['meta'],
          summary: 'Prometheus metrics (needs METRICS_TOKEN as a bearer token; off without it)',
          produces: ['text/plain'],
        },
      },
      async (request, reply) => {
        if (!opts.token) return reply.callNotFound()
        if (!sameSecret(request.headers.authorization, `Bearer ${opts.token}`)) {
          throw unauthorized('Send the metrics token as a bearer token.')
        }
        return reply.type(registry.contentType).send(await registry.metrics())
      },
    )
  },
  { name: 'portico-metrics' },
)

/** Compares in constant time, so the answer's timing says nothing about how much of it matched. */
function sameSecret(given: string | undefined, expected: string): boolean {
  const a = createHash('sha256')
    .update(given ?? '')
    .digest()
  const b = createHash('sha256').update(expected).digest()
  return timingSafeEqual(a, b)
}
