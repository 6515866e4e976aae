import type { IncomingMessage, ServerResponse } from 'node:http'
import Fastify, { type FastifyInstance, type RouteOptions } from 'fastify'
import type { ServerConfig } from './config/server.ts'
import type { Database, DatabaseHandle, DatabaseKind } from './db/client.ts'
import { requestIdGenerator } from './http/request-id.ts'
import { webRoutes } from './http/web.ts'
import { authRoutes } from './auth/routes.ts'
import { publicProfileRoutes } from './auth/public-profile.ts'
import { eventRoutes } from './events/routes.ts'
import { healthRoutes } from './meta/health.ts'
import { metaRoutes } from './meta/routes.ts'
import { apiAnswerHeaders } from './http/security-headers.ts'
import { httpBasics } from './http/basics.ts'
import { currentUserPlugin } from './auth/sessions.ts'
import { idempotencyPlugin } from './idempotency/plugin.ts'
import { BODY_LIMIT, proxyTrust, serverOptions } from './http/server-options.ts'
import { httpServer, leanRpcPath, type LeanRpcParts } from './rpc/lean-path.ts'
import type { StartingServer } from './http/starting.ts'
import { objectRoutes } from './objects/routes.ts'
import { batchRoutes } from './objects/batch-route.ts'
import { roleRoutes } from './roles/routes.ts'
import { fileRoutes } from './files/routes.ts'
import { rpcRoutes } from './rpc/routes.ts'
import { consoleDataRoutes } from './admin/data-routes.ts'
import { consoleImportRoute } from './admin/import-route.ts'
import { consolePeopleRoutes } from './admin/people-routes.ts'
import { consoleRoleRoutes } from './admin/role-routes.ts'
import { consoleCreateRoutes } from './admin/create-routes.ts'
import { consoleSyncRoutes } from './admin/sync-routes.ts'
import { consoleAddressRoutes } from './admin/address-routes.ts'
import { consoleCloudRoutes } from './admin/cloud-routes.ts'
import { RecentServerLog, withRecentLog } from './http/recent-log.ts'
import { compatMount } from './compat/mount.ts'
import { openServices, type Services } from './services.ts'
import { parseLiveQuerySocket } from './compat/live-query.ts'
import { nativeLiveSocket } from './live/native-socket.ts'
import { attachSockets, type SocketHandler } from './live/sockets.ts'

declare module 'fastify' {
  interface FastifyInstance {
    /** Every long-lived service of this server (services.ts), for tests and tools. */
    services: Services
    /** The server's recent warnings and errors, for the console's Logs section. */
    recentLog: RecentServerLog
  }
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
  /**
   * A listener already open (the CLI's, answering "starting" meanwhile): the routes are served
   * on it once `app.ready()` resolves, instead of `app.listen()`.
   */
  server?: StartingServer
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
  const { clientAddress } = proxyTrust(config.trustProxy)
  // The RPC gateway's hot path answers in the server's own request listener before Fastify
  // (rpc/lean-path.ts); its parts are filled in when the gateway's routes are registered.
  const leanRpc: LeanRpcParts = {}
  let observeRequest: FastifyInstance['observeRequest'] = () => {}
  const lean = leanRpcPath({
    gateway: () => leanRpc.gateway,
    access: () => leanRpc.access,
    bodyLimit: BODY_LIMIT,
    requestId: requestIdGenerator(config.trustProxy),
    clientAddress,
    headers: apiAnswerHeaders(config.app.publicOrigins[0]!.startsWith('https:')),
    observe: (status, seconds) => observeRequest('/api/rpc/:chainId', 'POST', status, seconds),
    onError: (error, requestId) =>
      app.log.error({ err: error, reqId: requestId }, 'rpc gateway error'),
  })
  const recentLog = new RecentServerLog()
  let fastifyHandler: ((request: IncomingMessage, response: ServerResponse) => void) | undefined
  const app = Fastify({
    ...serverOptions(config, withRecentLog(options.logger, config.logLevel, recentLog)),
    // Fastify's own HTTP/1 server, with the gateway's lean path in front.
    serverFactory: (handler) => {
      if (!options.server) return httpServer(config.timeouts, lean, handler)
      fastifyHandler = handler
      return options.server.server
    },
  })
  // On a listener already open: served on from the moment every route is ready.
  if (options.server) {
    const starting = options.server
    app.addHook('onReady', async () =>
      starting.serve((request, response) => {
        if (!lean(request, response)) fastifyHandler!(request, response)
      }),
    )
  }
  if (options.onRoute) app.addHook('onRoute', options.onRoute)
  const services = await openServices(config, database, app.log)
  app.addHook('onClose', async () => services.close())
  // Contract-event syncs declared by the site, run once the server is ready.
  app.addHook('onReady', async () => services.start())
  app.decorate('services', services)
  app.decorate('recentLog', recentLog)

  await app.register(httpBasics, { services })
  await app.register(currentUserPlugin, {
    sessions: services.sessions,
    publicOrigins: config.app.publicOrigins,
  })
  await app.register(idempotencyPlugin, { records: services.idempotency })
  observeRequest = app.observeRequest
  // Each plugin declares the services it uses; this object has them all.
  await app.register(healthRoutes, { services })
  await app.register(authRoutes, { services })
  await app.register(publicProfileRoutes, { services })
  await app.register(eventRoutes, { services })
  await app.register(objectRoutes, { services })
  await app.register(roleRoutes, { services })
  await app.register(batchRoutes, { services })
  await app.register(fileRoutes, { services })
  await app.register(consolePeopleRoutes, { services })
  await app.register(consoleDataRoutes, { services })
  await app.register(consoleRoleRoutes, { services })
  await app.register(consoleCreateRoutes, { services })
  await app.register(consoleImportRoute, { services })
  await app.register(consoleSyncRoutes, { services })
  await app.register(consoleAddressRoutes, { services })
  await app.register(consoleCloudRoutes, { services })
  await app.register(rpcRoutes, { services, leanPath: leanRpc })
  if (config.compat.mount) await app.register(compatMount, { services })
  const sockets = new Map<string, SocketHandler>([['/api/live', nativeLiveSocket(services)]])
  if (config.compat.mount) {
    const parseLiveQuery = parseLiveQuerySocket(services)
    sockets.set(config.compat.mount, parseLiveQuery)
    // Parse's LiveQuery server answers on any path: apps and `Parse.LiveQueryClient` often name
    // the bare host (`ws://host:1337`).
    sockets.set('/', parseLiveQuery)
  }
  attachSockets(app, sockets, { slots: services.socketSlots, clientAddress })
  await app.register(metaRoutes, { services })
  await app.register(webRoutes, {
    webDir: config.webDir,
    publicOrigin: config.app.publicOrigins[0]!,
  })
  return app
}
