import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify'
import {
  sessionResolver,
  TOKEN_PREFIX,
  type CompatCall,
  type CompatServices,
  type Method,
  METHODS,
} from '../compat/call.ts'
import { toParseError } from '../compat/parse-error.ts'
import type { CompatRoutes } from '../compat/routes.ts'
import { currentScope, withScope } from '../http/request-scope.ts'
import type { ParseSdk, RestController } from './parse-sdk.ts'

// The REST controller of cloud code's SDK: each call is answered by the compatibility mount's
// own routes in this process, as if a client had sent it (so access rules, triggers and
// answers are the mount's), without HTTP. `useMasterKey` is the master key's access whether or
// not MASTER_KEY is set: cloud code is the site's own server code.

export interface InProcessOptions {
  /** The server's services and the mount's routes, asked for at each call (cloud code loads first). */
  services: () => CompatServices
  routes: () => CompatRoutes
  log: FastifyBaseLogger
  /** The SDK whose `Parse.Error` the calls reject with (set once it is loaded). */
  sdk: () => ParseSdk
}

const notFromCloud: FastifyInstance['inject'] = (() => {
  throw new Error('This built-in function is for clients, not for cloud code.')
}) as unknown as FastifyInstance['inject']

export function inProcessController(options: InProcessOptions): RestController {
  return {
    async request(method, path, data, sent = {}) {
      const verb = String(method).toUpperCase()
      const Parse = options.sdk()
      if (!METHODS.has(verb)) throw new Parse.Error(107, `Unsupported method ${verb.slice(0, 10)}.`)
      const useMasterKey =
        sent.useMasterKey ?? (Parse.CoreManager.get('USE_MASTER_KEY') as boolean | undefined)
      const token = typeof sent.sessionToken === 'string' ? sent.sessionToken : undefined
      const scope = currentScope()
      // The answer is JSON on the wire: a copy keeps the caller's objects out of the store's.
      const params =
        data && typeof data === 'object'
          ? (JSON.parse(JSON.stringify(data)) as Record<string, unknown>)
          : {}
      const request = {
        ip: scope?.ip ?? '127.0.0.1',
        headers: scope?.headers ?? {},
        id: scope?.requestId ?? '',
        log: scope?.log ?? options.log,
      } as unknown as FastifyRequest
      try {
        const services = options.services()
        const call: CompatCall = {
          services,
          request,
          inject: notFromCloud,
          method: verb as Method,
          path: String(path).replace(/^\/+/, ''),
          params,
          bytes: undefined,
          master: useMasterKey === true,
          ...sessionResolver(services.sessions, token),
        }
        const answer = await withScope(
          {
            sessionToken: token,
            installationId:
              typeof sent.installationId === 'string' ? sent.installationId : scope?.installationId,
            context: (sent.context as Record<string, unknown> | undefined) ?? undefined,
          },
          () => options.routes().dispatch(call),
        )
        const body = answer.body as Record<string, unknown>
        return sent.returnStatus ? { ...body, _status: answer.status ?? 200, _headers: {} } : body
      } catch (error) {
        const parsed = toParseError(error)
        if (parsed) throw new Parse.Error(parsed.code, parsed.message)
        options.log.error({ err: error }, 'cloud code SDK call failed')
        throw new Parse.Error(1, 'Something went wrong on the server.')
      }
    },
    async ajax() {
      throw new Error(
        'Cloud code reaches Portico in-process: fetch other servers with Parse.Cloud.httpRequest.',
      )
    },
  }
}

/** A session token in the form cloud code's SDK sends it (`r:…`). */
export const clientToken = (token: string | undefined) =>
  token === undefined || token.startsWith(TOKEN_PREFIX) ? token : TOKEN_PREFIX + token
