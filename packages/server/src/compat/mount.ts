import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { ChainClients } from '../auth/signature.ts'
import { parseJsonText } from '../http/json-body.ts'
import { runBatch } from './batch.ts'
import {
  METHODS,
  sessionResolver,
  type CompatAnswer,
  type CompatCall,
  type Method,
} from './call.ts'
import { once } from './request-id.ts'
import {
  compatClassName,
  createInClass,
  deleteFromClass,
  getFromClass,
  queryClass,
  updateInClass,
} from './classes.ts'
import { serveFile, uploadFile } from './files.ts'
import { runFunction, type SiteFunctions } from './functions.ts'
import { ParseCode, ParseError, parseStatus, toParseError } from './parse-error.ts'
import { logout, me, signIn } from './users.ts'

// The Moralis v1 / Parse compatibility mount (`/server` by default): the REST routes those
// clients use, in their envelope, on Portico's object store, sessions, files and access rule.
// The routes are dispatched here rather than by Fastify, because the envelope carries the
// verb in its body (`_method`) and a batch runs its sub-requests through the same table.

/** What a text/plain envelope may carry besides the call's own parameters. */
const ENVELOPE_FIELDS = new Set([
  '_method',
  '_ApplicationId',
  '_JavaScriptKey',
  '_ClientVersion',
  '_InstallationId',
  '_SessionToken',
  '_MasterKey',
  '_RevocableSession',
  '_context',
])

export interface CompatOptions {
  clientFor: ChainClients
  functions: SiteFunctions
}

const described = (summary: string) => ({
  tags: ['compatibility'],
  summary,
  description:
    'Answers are Parse-shaped: `{ code, error }` with Parse error codes. See the README chapter "Coming from Moralis v1 or Parse".',
})

export async function compatMount(app: FastifyInstance, options: CompatOptions): Promise<void> {
  const mount = app.config.compat.mount ?? '/server'
  const appId = app.config.app.appId
  // Base64 makes a file a third bigger; the envelope adds a little.
  const bodyLimit = Math.max(1024 * 1024, Math.ceil((app.config.fileMaxBytes * 4) / 3) + 64 * 1024)

  // Encapsulated: these parsers and handlers apply under the mount only.
  app.removeAllContentTypeParsers()
  app.addContentTypeParser(
    ['text/plain', 'application/json'],
    { parseAs: 'string', bodyLimit },
    (_request, body, done) => {
      try {
        done(null, body === '' ? {} : parseJsonText(body as string))
      } catch (error) {
        done(error as Error)
      }
    },
  )
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit }, (_r, body, done) =>
    done(null, body),
  )

  // Browsers preflight every v1 request; dApps live on other origins and send their session in
  // the body (never a cookie), so any origin may call.
  app.addHook('onRequest', async (_request, reply) => {
    reply.header('access-control-allow-origin', '*')
  })
  app.setErrorHandler((error, request, reply) => {
    const parsed = toParseError(error)
    if (!parsed) {
      request.log.error({ err: error }, 'unhandled error')
      return reply.status(500).send({
        code: ParseCode.INTERNAL_SERVER_ERROR,
        error: 'Something went wrong on the server.',
      })
    }
    return reply.status(parseStatus(parsed.code)).send({ code: parsed.code, error: parsed.message })
  })
  app.options(
    `${mount}/*`,
    { schema: { ...described('CORS preflight (answered on every path)') } },
    async (request, reply) =>
      reply
        .header('access-control-allow-methods', 'GET, POST, PUT, DELETE, OPTIONS')
        .header(
          'access-control-allow-headers',
          String(request.headers['access-control-request-headers'] ?? 'content-type').slice(
            0,
            1000,
          ),
        )
        .header('access-control-max-age', '86400')
        .status(204)
        .send(),
  )

  const handle = async (request: FastifyRequest, reply: FastifyReply) => {
    const raw = request.body
    const body =
      raw !== null && typeof raw === 'object' && !Buffer.isBuffer(raw)
        ? (raw as Record<string, unknown>)
        : {}
    if (Array.isArray(raw))
      throw new ParseError(ParseCode.INVALID_JSON, 'The body must be a JSON object.')
    const header = (name: string) => {
      const value = request.headers[name]
      return typeof value === 'string' ? value : undefined
    }
    const path = (request.params as { '*': string })['*'].replace(/\/+$/, '')
    // A file's URL is a plain GET without headers (apps put it in <img src>).
    const served = request.method === 'GET' && /^files\/[^/]+\/([^/]+)$/.exec(path)
    if (served) {
      if (await serveFile(app, decodeURIComponent(served[1]!), reply)) return reply
      throw new ParseError(ParseCode.OBJECT_NOT_FOUND, 'No such file.')
    }
    const override = body._method
    const method = (
      typeof override === 'string' && request.method === 'POST' ? override : request.method
    ).toUpperCase()
    if (!METHODS.has(method))
      throw new ParseError(ParseCode.INVALID_JSON, `Unsupported method ${method.slice(0, 10)}.`)
    const givenAppId = body._ApplicationId ?? header('x-parse-application-id')
    if (givenAppId !== appId)
      throw new ParseError(
        ParseCode.OPERATION_FORBIDDEN,
        'unauthorized: this server serves another application id.',
      )
    if (body._MasterKey !== undefined || header('x-parse-master-key') !== undefined)
      throw new ParseError(
        ParseCode.OPERATION_FORBIDDEN,
        'Portico has no master key: run privileged work in a server function (FUNCTIONS_MODULE).',
      )
    const token = body._SessionToken ?? header('x-parse-session-token')
    const params: Record<string, unknown> = {}
    for (const [key, value] of Object.entries(body))
      if (!ENVELOPE_FIELDS.has(key)) params[key] = value
    if (method === 'GET' && request.method === 'GET') Object.assign(params, request.query as object)
    const call: CompatCall = {
      app,
      request,
      method: method as Method,
      path,
      params,
      ...sessionResolver(app, typeof token === 'string' ? token : undefined),
    }
    const fileUpload = /^files\/([^/]+)$/.exec(call.path)
    if (call.method === 'POST' && fileUpload) {
      const answer = await uploadFile(call, fileUpload[1]!, Buffer.isBuffer(raw) ? raw : undefined)
      return reply.status(answer.status ?? 200).send(answer.body)
    }
    const answer = await once(call, header('x-parse-request-id'), () => dispatch(call))
    return reply.status(answer.status ?? 200).send(answer.body)
  }

  app.route({
    method: ['GET', 'POST', 'PUT', 'DELETE'],
    url: `${mount}/*`,
    bodyLimit,
    schema: described(
      'Moralis v1 / Parse REST API: functions, users, logout, classes, batch, files (envelope or X-Parse-* headers)',
    ),
    handler: handle,
  })
  app.route({
    method: ['GET', 'POST'],
    url: mount,
    schema: described('Parse API root (LiveQuery WebSocket upgrades arrive here)'),
    handler: async () => {
      throw new ParseError(
        ParseCode.OBJECT_NOT_FOUND,
        'This is the Parse-compatible API root: call one of its routes.',
      )
    },
  })

  /** One call → its answer; batch sub-requests come back through here. */
  async function dispatch(call: CompatCall): Promise<CompatAnswer> {
    const parts = call.path.split('/').map((part) => decodeURIComponent(part))
    const [area, first, second, ...rest] = parts
    const route = `${call.method} ${area ?? ''}${first === undefined ? '' : '/*'}${second === undefined ? '' : '/*'}${rest.length ? '/…' : ''}`
    switch (route) {
      case 'POST functions/*':
        return { body: { result: await runFunction(call, first!, options.functions) } }
      case 'POST users':
        return signIn(call, options.clientFor)
      case 'GET users/*':
        if (first === 'me') return me(call)
        return getFromClass(call, '_User', first!)
      case 'PUT users/*':
        return updateInClass(call, '_User', first!)
      case 'POST logout':
        return logout(call)
      case 'POST batch':
        return runBatch(call, mount, dispatch)
      case 'GET classes/*':
        return queryClass(call, compatClassName(first!))
      case 'POST classes/*':
        return createInClass(call, compatClassName(first!))
      case 'GET classes/*/*':
        return getFromClass(call, compatClassName(first!), second!)
      case 'PUT classes/*/*':
        return updateInClass(call, compatClassName(first!), second!)
      case 'DELETE classes/*/*':
        return deleteFromClass(call, compatClassName(first!), second!)
      default:
        throw new ParseError(
          ParseCode.OPERATION_FORBIDDEN,
          `${call.method} ${call.path.slice(0, 100)} is not available on Portico's Parse-compatible API.`,
        )
    }
  }
}
