import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { parseJsonText } from '../http/json-body.ts'
import { RateLimited } from '../errors.ts'
import { sessionResolver, type CompatCall, type CompatServices } from './call.ts'
import { checkEnvelope, readEnvelope } from './envelope.ts'
import { serveFile } from './files.ts'
import { answersWithoutAppId } from './functions.ts'
import { mailPages } from './mail-pages.ts'
import { masterKeyCheck } from './master-key.ts'
import { ParseCode, ParseError, parseStatus, toParseError } from './parse-error.ts'
import { once } from './request-id.ts'
import { withScope } from '../http/request-scope.ts'
import type { CompatRoutes } from './routes.ts'

// The Moralis v1 / Parse compatibility mount (`/server` by default): the REST routes those
// clients use, in their envelope, on Portico's object store, sessions, files and access rule.
// Fastify routes everything below the mount to one handler, which reads the envelope and
// dispatches through the mount's own route table (routes.ts): the envelope carries the verb in
// its body (`_method`), and a batch runs its sub-requests through the same table.

export interface CompatOptions {
  services: CompatServices & { compatRoutes: CompatRoutes }
}

const described = (summary: string) => ({
  tags: ['compatibility'],
  summary,
  description:
    'Answers are Parse-shaped: `{ code, error }` with Parse error codes. See the README chapter "Coming from Moralis v1 or Parse".',
})

export async function compatMount(
  app: FastifyInstance,
  { services }: CompatOptions,
): Promise<void> {
  const { config } = services
  const mount = config.compat.mount ?? '/server'
  const appId = config.app.appId
  const masterKey = masterKeyCheck(config.compat)
  if (config.compat.masterKey !== undefined) await services.masterOwner.ensure()
  // Base64 makes a file a third bigger; the envelope adds a little.
  const bodyLimit = Math.max(1024 * 1024, Math.ceil((config.fileMaxBytes * 4) / 3) + 64 * 1024)
  const routes = services.compatRoutes

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
  // The SDK reads a started job's id from the one header it is told it may read, spelled so.
  app.addHook('onRequest', async (_request, reply) => {
    reply.header('access-control-allow-origin', '*')
    reply.header('access-control-expose-headers', 'X-Parse-Job-Status-Id')
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
    if (error instanceof RateLimited) reply.header('retry-after', String(error.retryAfter))
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
    const envelope = readEnvelope(request)
    const path = (request.params as { '*': string })['*'].replace(/\/+$/, '')
    const file = request.method === 'GET' ? routes.fileName(path) : undefined
    if (file !== undefined) {
      if (await serveFile(services.files, file, reply)) return reply
      throw new ParseError(ParseCode.OBJECT_NOT_FOUND, 'No such file.')
    }
    // v1 clients before 1.12 call the Web3 API with no app id.
    const functionName = /^functions\/([A-Za-z0-9_]{1,64})$/.exec(path)?.[1]
    const appIdOptional =
      envelope.method === 'POST' &&
      functionName !== undefined &&
      answersWithoutAppId(functionName, services.functions, services.cloud)
    const call: CompatCall = {
      services,
      request,
      inject: app.inject.bind(app),
      method: checkEnvelope(envelope, appId, appIdOptional),
      path,
      params: envelope.params,
      bytes: envelope.bytes,
      master: masterKey(envelope.masterKey, request.ip),
      ...sessionResolver(services.sessions, envelope.sessionToken),
    }
    const found = routes.find(call.method, call.path)
    const answerCall = () =>
      found?.route.kind === 'call' && !found.route.once
        ? routes.answer(call, found)
        : once(call, envelope.requestId, () => routes.answer(call, found))
    // Cloud code's request objects read the caller's token, installation and context from here.
    const answer = await withScope(
      {
        sessionToken: envelope.sessionToken,
        installationId: envelope.installationId,
        context: envelope.context,
      },
      answerCall,
    )
    if (answer.headers) reply.headers(answer.headers)
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
  // The pages the password reset and email verification mails link to.
  mailPages(app, services, mount)
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
}
