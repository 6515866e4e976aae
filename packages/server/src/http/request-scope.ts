import { AsyncLocalStorage } from 'node:async_hooks'
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify'
import type { ServerConfig } from '../config/server.ts'

// Who a piece of work is done for, as far as code far from the route needs it (cloud code's
// request object: the caller's address, headers, session and the context a client sent). Set
// once per HTTP request, before its handler, and carried through everything the handler awaits.
// Only cloud code reads it, so a server without cloud code keeps none: on Node 20 the first
// `run` of any AsyncLocalStorage installs promise hooks for good, which then tax every promise
// of every request (the RPC gateway's included, about 3% of its CPU under load).

export interface RequestScope {
  ip: string
  headers: FastifyRequest['headers']
  requestId: string
  log: FastifyBaseLogger
  /** The caller's session token in the client's form, when the request carried one. */
  sessionToken?: string | undefined
  /** Parse's installation id, when the client sent one. */
  installationId?: string | undefined
  /** Parse's `context`: what the client passed to its save for the triggers. */
  context?: Record<string, unknown> | undefined
}

const storage = new AsyncLocalStorage<RequestScope>()

/** Whether a server of this process runs cloud code, and so keeps scopes (set once, never unset). */
let kept = false

/** The scope of the work in progress; undefined outside any request (a sync, a job). */
export const currentScope = (): RequestScope | undefined => storage.getStore()

/**
 * Runs `work` in `scope` (merged over the current one); in a process that keeps no scopes, runs
 * it as it is.
 */
export function withScope<T>(scope: Partial<RequestScope>, work: () => T): T {
  if (!kept) return work()
  const current = storage.getStore()
  return storage.run({ ...defaults, ...current, ...scope } as RequestScope, work)
}

const defaults = { ip: '127.0.0.1', headers: {}, requestId: '' }

/**
 * Gives every route's handler its request's scope (the bearer token as its session) when the
 * server runs cloud code; without it, nothing.
 */
export function installRequestScope(app: FastifyInstance, config: ServerConfig): void {
  if (config.cloudCode === undefined) return
  kept = true
  app.addHook('preHandler', (request, _reply, done) => {
    const bearer = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1]
    storage.run(
      {
        ip: request.ip,
        headers: request.headers,
        requestId: request.id,
        log: request.log,
        sessionToken: bearer,
      },
      done,
    )
  })
}
