import Fastify, { type FastifyInstance, type RouteOptions } from 'fastify'
import proxyAddr from '@fastify/proxy-addr'
import swagger from '@fastify/swagger'
import compress from '@fastify/compress'
import cookie from '@fastify/cookie'
import rateLimit from '@fastify/rate-limit'
import type { ServerConfig } from './config.ts'
import type { Database, DatabaseHandle, DatabaseKind } from './db/client.ts'
import { installErrorHandler } from './http/error-handler.ts'
import { installJsonBodyParser } from './http/json-body.ts'
import { originGuard } from './http/origin-guard.ts'
import { rateLimitStore } from './http/rate-limit-store.ts'
import type { SocketSlots, WindowCounter } from './db/cluster/cluster.ts'
import { metricsPlugin } from './http/metrics.ts'
import { requestIdGenerator } from './http/request-id.ts'
import { webRoutes } from './http/web.ts'
import { authRoutes } from './auth/routes.ts'
import { eventRoutes } from './events/routes.ts'
import { healthRoutes } from './meta/health.ts'
import { metaRoutes } from './meta/routes.ts'
import { apiAnswerHeaders, securityHeaders } from './http/security-headers.ts'
import type { RpcAccess } from './rpc/access.ts'
import type { RpcGateway } from './rpc/gateway.ts'
import { httpServer, leanRpcPath } from './rpc/lean-path.ts'
import { idempotencyPlugin } from './idempotency/plugin.ts'
import { currentUserPlugin } from './auth/sessions.ts'
import { objectRoutes } from './objects/routes.ts'
import { batchRoutes } from './objects/batch-route.ts'
import { fileRoutes } from './files/routes.ts'
import type { ApiKeyVerifier } from './rpc/api-keys.ts'
import { rpcRoutes } from './rpc/routes.ts'
import { consoleDataRoutes } from './admin/data-routes.ts'
import { consoleImportRoute } from './admin/import-route.ts'
import { consolePeopleRoutes } from './admin/people-routes.ts'
import { serverVersion } from './version.ts'
import { compatMount } from './compat/mount.ts'
import { openServices, type Services } from './services.ts'
import type { SyncStatus } from './sync/syncer.ts'
import type { Sync } from './sync/definition.ts'
import type { FileStore } from './files/store.ts'
import { parseLiveQuerySocket } from './compat/live-query.ts'
import type { LiveHub } from './live/hub.ts'
import { nativeLiveSocket } from './live/native-socket.ts'
import { attachSockets, type SocketHandler } from './live/sockets.ts'
import type { FieldIndexes } from './objects/field-indexes.ts'

declare module 'fastify' {
  interface FastifyInstance {
    db: Database
    dbKind: DatabaseKind
    /** This process's id among the processes on the database (`server_processes`). */
    processId: string
    /** What the RPC gateway's lean path answers with (set by the gateway's routes). */
    rpcLeanPath: LeanRpcParts
    /** Indexes on the document fields each class is queried on (objects/field-indexes.ts). */
    fieldIndexes: FieldIndexes
    config: ServerConfig
    /** The counters behind every rate limit (shared through the database on PostgreSQL). */
    windowCounter: WindowCounter
    /** Live-query subscriptions of this process's sockets. */
    liveHub: LiveHub
    /** Checks gateway API keys (remembering valid ones for 30 s). */
    apiKeys: ApiKeyVerifier
    /** Uploaded files, wherever their bytes are kept. */
    files: FileStore
    /** Every long-lived service of this server (services.ts). */
    services: Services
    /** The contract-event syncs the site declared. */
    syncs: Sync[]
    /** Their progress, as this process sees it (`writer`: this process runs it). */
    syncStatus(): (SyncStatus & { writer: boolean })[]
  }
}

/** The RPC gateway's parts its lean path needs, known once its routes are registered. */
export interface LeanRpcParts {
  gateway?: RpcGateway
  access?: RpcAccess
}

export interface BuildServerOptions {
  config: ServerConfig
  database: {
    db: Database
    kind: DatabaseKind
    pool?: DatabaseHandle['pool']
    /** PostgreSQL's connection URL: live queries listen for other processes' changes on it. */
    url?: string | undefined
    /** Connections for shared state that may lose its last moments in a crash (see db/client.ts). */
    relaxed?: Database | undefined
  }
  /** Pino logger options; `false` silences logs (tests). */
  logger?: boolean | object
  /** Called for every route as it is registered (the OpenAPI coverage test collects them). */
  onRoute?: (route: RouteOptions) => void
}

/**
 * Builds the Portico server as a value: every route registered, nothing listening yet.
 * Tests call `app.inject()` on it; the CLI calls `app.listen()`.
 *
 * @example
 * const app = await buildServer({ config: loadConfig(), database: await openDatabase({ kind: 'pglite' }) })
 */
export async function buildServer(options: BuildServerOptions): Promise<FastifyInstance> {
  const { config, database } = options
  const trust =
    typeof config.trustProxy === 'number'
      ? (_address: string, hop: number) => hop < (config.trustProxy as number)
      : config.trustProxy
  const trusted = typeof trust === 'function' ? trust : proxyAddr.compile(trust || [])
  // The RPC gateway's hot path answers in the server's own request listener before Fastify
  // (rpc/lean-path.ts); its parts are filled in when the gateway's routes are registered.
  const leanRpc: LeanRpcParts = {}
  let observeRequest: FastifyInstance['observeRequest'] = () => {}
  const lean = leanRpcPath({
    gateway: () => leanRpc.gateway,
    access: () => leanRpc.access,
    bodyLimit: 1024 * 1024,
    requestId: requestIdGenerator(config.trustProxy),
    clientAddress: (request) => proxyAddr(request, trusted),
    headers: apiAnswerHeaders(config.app.publicOrigins[0]!.startsWith('https:')),
    observe: (status, seconds) => observeRequest('/api/rpc/:chainId', 'POST', status, seconds),
    onError: (error, requestId) =>
      app.log.error({ err: error, reqId: requestId }, 'rpc gateway error'),
  })
  const app = Fastify({
    // Fastify's own HTTP/1 server, with the gateway's lean path in front.
    serverFactory: (handler) => httpServer(config.timeouts, lean, handler),
    logger: options.logger ?? { level: config.logLevel },
    bodyLimit: 1024 * 1024,
    requestTimeout: config.timeouts.requestMs,
    connectionTimeout: config.timeouts.idleMs,
    keepAliveTimeout: config.timeouts.idleMs,
    // Off unless TRUST_PROXY names the proxies: otherwise anyone could claim any address.
    trustProxy: trust,
    // One id per request in every log line and in the answer; a trusted proxy's own id is kept.
    genReqId: requestIdGenerator(config.trustProxy),
    // Strict JSON: reject prototype-poisoning keys instead of silently stripping them.
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
    ajv: { customOptions: { removeAdditional: false, coerceTypes: false, allErrors: false } },
  })
  if (options.onRoute) app.addHook('onRoute', options.onRoute)
  app.addHook('onSend', async (request, reply, payload) => {
    reply.header('x-request-id', request.id)
    return payload
  })
  const services = await openServices(config, database, app.log)
  app.addHook('onClose', async () => services.close())
  app.decorate('services', services)
  app.decorate('processId', services.processId)
  app.decorate('db', database.db)
  app.decorate('dbKind', database.kind)
  app.decorate('config', config)
  installErrorHandler(app)
  installJsonBodyParser(app)

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Portico API', version: serverVersion },
    },
  })
  // Live-query figures for the metrics, known once the hub and sockets exist below.
  const liveStats: { hub?: LiveHub; slots?: SocketSlots } = {}
  await app.register(metricsPlugin, {
    token: config.metricsToken,
    pool: () => database.pool,
    live: () => ({
      sockets: liveStats.slots?.open ?? 0,
      subscriptions: liveStats.hub?.size ?? 0,
    }),
  })
  await app.register(compress, { global: true, threshold: 1024 })
  await app.register(cookie)
  await app.register(originGuard, { config })
  await app.register(securityHeaders, { config })
  const counter = services.windowCounter
  app.decorate('windowCounter', counter)
  // Limits are set per route (auth, events); the RPC gateway counts calls with `windowCounter`.
  await app.register(rateLimit, { global: false, store: rateLimitStore(counter) })

  app.decorate('files', services.files)
  app.decorate('apiKeys', services.apiKeys)
  app.decorate('rpcLeanPath', leanRpc)
  observeRequest = app.observeRequest
  app.decorate('fieldIndexes', services.fieldIndexes)

  await app.register(currentUserPlugin, {
    sessions: services.sessions,
    publicOrigins: config.app.publicOrigins,
  })
  await app.register(idempotencyPlugin, { db: database.db })

  await app.register(healthRoutes, { services })
  // Contract-wallet signatures are checked on chain through the gateway's upstream nodes.
  const clientFor = services.chainClients
  await app.register(authRoutes, { services })
  await app.register(eventRoutes, { services })
  await app.register(objectRoutes)
  await app.register(batchRoutes)
  await app.register(fileRoutes, { services })
  await app.register(rpcRoutes)
  await app.register(consolePeopleRoutes, { services })
  await app.register(consoleDataRoutes)
  await app.register(consoleImportRoute, { services })

  const hub = services.liveHub
  app.decorate('liveHub', hub)
  liveStats.hub = hub
  const sockets = new Map<string, SocketHandler>([['/api/live', nativeLiveSocket(services)]])
  if (config.compat.mount) {
    sockets.set(config.compat.mount, parseLiveQuerySocket(services))
    await app.register(compatMount, { clientFor, functions: services.functions })
  }
  liveStats.slots = services.socketSlots
  attachSockets(app, sockets, {
    slots: liveStats.slots,
    clientAddress: (request) => proxyAddr(request, trusted),
  })

  app.decorate('syncs', services.syncs)
  // Contract-event syncs declared by the site, run once the server is ready.
  app.addHook('onReady', async () => services.start())
  app.decorate('syncStatus', services.syncStatus)

  await app.register(metaRoutes, { services })
  await app.register(webRoutes, { webDir: config.webDir })
  return app
}
