import compress from '@fastify/compress'
import cookie from '@fastify/cookie'
import rateLimit from '@fastify/rate-limit'
import swagger from '@fastify/swagger'
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import type { ServerConfig } from '../config/server.ts'
import type { DatabaseHandle } from '../db/client.ts'
import type { SocketSlots, WindowCounter } from '../db/cluster/cluster.ts'
import { serverVersion } from '../version.ts'
import { installErrorHandler } from './error-handler.ts'
import { installJsonBodyParser } from './json-body.ts'
import { installRequestScope } from './request-scope.ts'
import { metricsPlugin } from './metrics.ts'
import { originGuard } from './origin-guard.ts'
import { rateLimitStore } from './rate-limit-store.ts'
import { securityHeaders } from './security-headers.ts'

/** What the HTTP basics use of the server's services. */
export interface HttpBasicsNeeds {
  config: ServerConfig
  database: { pool?: DatabaseHandle['pool'] }
  windowCounter: WindowCounter
  socketSlots: Pick<SocketSlots, 'open'>
  /** The live hub's subscriptions, counted for the metrics. */
  liveHub: { readonly size: number }
}

/**
 * What every route stands on, in the order requests meet it: errors answered as
 * `{ error: { code, message } }`, strict JSON, the request id on every answer, the OpenAPI
 * document, metrics, compression, cookies, the origin guard, security headers and rate limits
 * (their counters from the cluster). The current user and `Idempotency-Key` come next (app.ts):
 * they are auth's and idempotency's, registered on top of these.
 */
export const httpBasics = fp<{ services: HttpBasicsNeeds }>(
  async function httpBasics(app: FastifyInstance, { services }) {
    const { config } = services
    installErrorHandler(app)
    installJsonBodyParser(app)
    installRequestScope(app, config)
    app.addHook('onSend', async (request, reply, payload) => {
      reply.header('x-request-id', request.id)
      return payload
    })
    await app.register(swagger, {
      openapi: { openapi: '3.1.0', info: { title: 'Portico API', version: serverVersion } },
    })
    await app.register(metricsPlugin, {
      token: config.metricsToken,
      pool: () => services.database.pool,
      live: () => ({
        sockets: services.socketSlots.open,
        subscriptions: services.liveHub.size,
      }),
    })
    await app.register(compress, { global: true, threshold: 1024 })
    await app.register(cookie)
    await app.register(originGuard, { config })
    await app.register(securityHeaders, { config })
    // Limits are set per route (auth, events); the RPC gateway counts calls with the same counter.
    await app.register(rateLimit, { global: false, store: rateLimitStore(services.windowCounter) })
  },
  { name: 'portico-http' },
)
