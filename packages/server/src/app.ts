import Fastify, { type FastifyInstance, type RouteOptions } from 'fastify'
import proxyAddr from '@fastify/proxy-addr'
import swagger from '@fastify/swagger'
import compress from '@fastify/compress'
import cookie from '@fastify/cookie'
import rateLimit from '@fastify/rate-limit'
import { createChainClients } from './auth/signature.ts'
import type { ServerConfig } from './config.ts'
import type { Database, DatabaseHandle, DatabaseKind } from './db/client.ts'
import { installErrorHandler } from './http/error-handler.ts'
import { installJsonBodyParser } from './http/json-body.ts'
import { originGuard } from './http/origin-guard.ts'
import { joinPeers, sharedSettings } from './db/peers.ts'
import { counterRateLimitStore } from './http/rate-limit-store.ts'
import {
  databaseWindowCounter,
  memoryWindowCounter,
  type WindowCounter,
} from './http/window-counter.ts'
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
import { currentUserPlugin, shareSessionRevocations } from './auth/sessions.ts'
import { objectRoutes } from './objects/routes.ts'
import { batchRoutes } from './objects/batch-route.ts'
import { fileRoutes } from './files/routes.ts'
import { openFileStore, type FileStore } from './files/store.ts'
import { ApiKeyVerifier } from './rpc/api-keys.ts'
import { rpcRoutes } from './rpc/routes.ts'
import { consoleDataRoutes } from './admin/data-routes.ts'
import { consoleImportRoute } from './admin/import-route.ts'
import { consolePeopleRoutes } from './admin/people-routes.ts'
import { serverVersion } from './version.ts'
import { compatMount } from './compat/mount.ts'
import { loadSiteModule } from './site-module.ts'
import { checkSync, type Sync } from './sync/definition.ts'
import { startSyncs, type SyncRunner } from './sync/runner.ts'
import type { SyncStatus } from './sync/syncer.ts'
import { parseLiveQuerySocket } from './compat/live-query.ts'
import { LiveHub } from './live/hub.ts'
import { databaseSocketSlots, memorySocketSlots, type SocketSlots } from './live/socket-slots.ts'
import { nativeLiveSocket } from './live/native-socket.ts'
import { attachSockets, type SocketHandler } from './live/sockets.ts'
import { openChangeFeed } from './objects/changes.ts'
import { FieldIndexes } from './objects/field-indexes.ts'
import { readObjectAsServer } from './objects/store.ts'

declare module 'fastify' {
  interface FastifyInstance {
    db: Database
    dbKind: DatabaseKind
    /** This process's id among the processes on one PostgreSQL (`server_processes`). */
    processId: string | undefined
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
  // Several processes on one PostgreSQL share limits, sessions and visitors: their settings must match.
  let processId: string | undefined
  if (database.kind === 'postgres') {
    const membership = await joinPeers(database.db, sharedSettings(config))
    processId = membership.id
    app.addHook('onClose', async () => membership.leave())
  }
  app.decorate('processId', processId)
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
  await app.register(originGuard)
  await app.register(securityHeaders)
  // One set of counters behind every limit: on PostgreSQL (several processes) they live in the
  // database and are shared; on PGlite there is one process and memory is exact.
  const counter =
    database.kind === 'postgres'
      ? databaseWindowCounter(database.relaxed ?? database.db)
      : memoryWindowCounter()
  app.decorate('windowCounter', counter)
  // Limits are set per route (auth, events); the RPC gateway counts calls with `windowCounter`.
  await app.register(rateLimit, {
    global: false,
    ...(database.kind === 'postgres' ? { store: counterRateLimitStore(counter) } : {}),
  })

  const fileStore = await openFileStore(database.db, config.files, config.fileMaxBytes, app.log)
  app.decorate('files', fileStore)
  app.decorate('apiKeys', new ApiKeyVerifier(database.db))
  app.decorate('rpcLeanPath', leanRpc)
  observeRequest = app.observeRequest
  const fieldIndexes = new FieldIndexes(
    database.db,
    database.kind === 'postgres' ? database.url : undefined,
    (error, index) => app.log.warn({ err: error, ...index }, 'building a field index failed'),
  )
  await fieldIndexes.load()
  app.decorate('fieldIndexes', fieldIndexes)
  app.addHook('onClose', async () => fieldIndexes.close())
  app.addHook('onClose', async () => fileStore.close())

  await app.register(currentUserPlugin)
  await app.register(idempotencyPlugin)

  await app.register(healthRoutes)
  // Contract-wallet signatures are checked on chain through the gateway's upstream nodes.
  const clientFor = createChainClients(config.rpc.upstreams)
  await app.register(authRoutes, { clientFor })
  await app.register(eventRoutes)
  await app.register(objectRoutes)
  await app.register(batchRoutes)
  await app.register(fileRoutes)
  await app.register(rpcRoutes)
  await app.register(consolePeopleRoutes)
  await app.register(consoleDataRoutes)
  await app.register(consoleImportRoute)

  // Live queries: every committed object change, from this process or (on PostgreSQL) any
  // other, is matched against the subscriptions of the sockets connected here.
  const url = database.url ?? config.databaseUrl
  const feed = openChangeFeed(
    database.db,
    database.kind === 'postgres' && url
      ? {
          kind: 'postgres',
          url,
          readObject: (keys) => readObjectAsServer(database.db, keys),
          notifyOn: database.relaxed,
        }
      : { kind: 'pglite' },
  )
  const hub = new LiveHub(database.db, feed, (error) =>
    app.log.error({ err: error }, 'live query dispatch failed'),
  )
  // Sessions are remembered for a moment per process; a revocation is told to the others, and
  // this process hears them before it serves a request.
  const revocations =
    database.kind === 'postgres' && url
      ? shareSessionRevocations(database.db, url, database.relaxed ?? database.db)
      : undefined
  await revocations?.ready
  app.addHook('onClose', async () => {
    hub.close()
    await feed.close()
    await revocations?.close()
  })
  app.decorate('liveHub', hub)
  liveStats.hub = hub
  const sockets = new Map<string, SocketHandler>([['/api/live', nativeLiveSocket(app, hub)]])
  const site = await loadSiteModule(config.functionsModule)
  if (config.compat.mount) {
    sockets.set(config.compat.mount, parseLiveQuerySocket(app, hub))
    await app.register(compatMount, { clientFor, functions: site.functions })
  }
  // The per-address socket limit holds across processes on PostgreSQL.
  const max = config.liveMaxSocketsPerAddress
  if (processId) {
    const shared = databaseSocketSlots(database.db, processId, max)
    app.addHook('onClose', async () => shared.leave())
    liveStats.slots = shared
  } else {
    liveStats.slots = memorySocketSlots(max)
  }
  attachSockets(app, sockets, {
    slots: liveStats.slots,
    clientAddress: (request) => proxyAddr(request, trusted),
  })

  // Contract-event syncs declared by the site, run once the server is ready.
  const syncs = site.syncs.map((definition) =>
    checkSync(definition, new Set(config.rpc.upstreams.keys())),
  )
  app.decorate('syncs', syncs)
  let runner: SyncRunner | undefined
  app.addHook('onReady', async () => {
    if (syncs.length === 0) return
    runner = startSyncs({
      db: database.db,
      syncs,
      upstreams: config.rpc.upstreams,
      log: app.log,
      postgresUrl: database.kind === 'postgres' ? url : undefined,
    })
  })
  app.addHook('onClose', async () => runner?.stop())
  app.decorate('syncStatus', () => runner?.status() ?? [])

  await app.register(metaRoutes)
  await app.register(webRoutes, { webDir: config.webDir })
  return app
}
