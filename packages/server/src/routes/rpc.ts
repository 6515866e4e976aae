import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { promisify } from 'node:util'
import zlib from 'node:zlib'

import { HttpError, unauthorized } from '../errors.ts'
import type { WindowCounter } from '../http/window-counter.ts'
import { rpcErrorHandler } from '../rpc/error-handler.ts'
import { RpcGateway } from '../rpc/gateway.ts'

declare module 'fastify' {
  interface FastifyRequest {
    /** Who the gateway bills this request to: `key:<id>` or `user:<id>`. */
    rpcCaller: string
  }
}

const jsonRpcObject = {
  type: 'object',
  description: 'A JSON-RPC 2.0 request: { jsonrpc: "2.0", id, method, params }',
  additionalProperties: true,
} as const

const gzip = promisify(zlib.gzip)
const gzipAbove = 16 * 1024

/** Calls in a request body: each call of a batch counts against the limits. */
const callsIn = (body: unknown) => (Array.isArray(body) ? Math.max(body.length, 1) : 1)

// Two limits apply (per address, then per key or user), counted in calls rather than requests:
// a batch of 100 calls costs 100. The address is charged one call before authentication (a
// cheap flood guard) and the rest once the body is read.
function callLimit(
  counter: WindowCounter,
  max: number,
  who: string,
  keyOf: (r: FastifyRequest) => string,
) {
  return async (request: FastifyRequest, reply: FastifyReply, calls: number): Promise<void> => {
    const { count, ttlMs } = await counter.add(`rpc|${keyOf(request)}`, calls, 60_000)
    if (count <= max) return
    const seconds = Math.max(1, Math.ceil(ttlMs / 1000))
    reply.header('retry-after', String(seconds))
    const message = `${who} may send ${max} calls per minute; retry in ${seconds} s.`
    throw new HttpError(429, 'rate_limited', message)
  }
}

/**
 * `POST /api/rpc/:chainId`: the JSON-RPC gateway. Upstream node URLs stay
 * on the server; callers authenticate with an API key (`x-api-key`) or a session; each caller IP
 * and each key or user is rate-limited.
 */
export async function rpcRoutes(app: FastifyInstance): Promise<void> {
  const config = app.config.rpc
  const gateway = new RpcGateway(
    config,
    (chainId, failure) => app.log.warn({ chainId, ...failure }, 'rpc upstream attempt failed'),
    (chainId, outcome, seconds) => app.upstreamAttempt(chainId, outcome, seconds),
  )
  const keys = app.apiKeys
  app.addHook('onClose', async () => gateway.close())
  app.setErrorHandler(rpcErrorHandler)
  app.decorateRequest('rpcCaller', '')
  const counter = app.windowCounter
  const perIp = callLimit(counter, config.rateLimitPerIp, 'This address', (r) => `ip:${r.ip}`)
  const perCaller = callLimit(
    counter,
    config.rateLimitPerKey,
    'This API key or user',
    (r) => r.rpcCaller,
  )

  async function authenticate(request: FastifyRequest): Promise<void> {
    const key = request.headers['x-api-key']
    if (typeof key === 'string' && key !== '') {
      const id = await keys.verify(key)
      if (!id) throw unauthorized('The API key is not valid.', 'invalid_api_key')
      request.rpcCaller = `key:${id}`
      return
    }
    // A signed-in browser needs no key; the app-wide origin guard keeps other sites from riding
    // on its session cookie.
    const signedIn = await request.currentUser()
    if (signedIn) {
      request.rpcCaller = `user:${signedIn.user.id}`
      return
    }
    throw unauthorized('Send an API key in the x-api-key header, or sign in.', 'api_key_required')
  }

  app.post<{ Params: { chainId: string } }>(
    '/api/rpc/:chainId',
    {
      onRequest: [(request, reply) => perIp(request, reply, 1), authenticate],
      preHandler: async (request, reply) => {
        const calls = callsIn(request.body)
        if (calls > 1) await perIp(request, reply, calls - 1)
        await perCaller(request, reply, calls)
      },
      // The global compression hook costs ~15% of the gateway's CPU per call, and most JSON-RPC
      // answers are a few hundred bytes: the handler gzips only large answers itself.
      compress: false,
      decompress: false,
      schema: {
        tags: ['rpc'],
        summary: 'JSON-RPC 2.0 gateway to the blockchain nodes of a chain (single call or batch)',
        params: {
          type: 'object',
          properties: { chainId: { type: 'string', pattern: '^[0-9]{1,15}$' } },
          required: ['chainId'],
        },
        body: { anyOf: [jsonRpcObject, { type: 'array', items: {} }] },
      },
    },
    async (request, reply) => {
      const result = await gateway.handle(Number(request.params.chainId), request.body)
      if (result.retryAfter) reply.header('retry-after', result.retryAfter)
      if (result.body === undefined) return reply.status(204).send()
      reply.status(result.status).type('application/json; charset=utf-8')
      const payload = JSON.stringify(result.body)
      // Only large answers (logs, full blocks) are worth gzip; see `compress: false` above.
      if (
        payload.length < gzipAbove ||
        !/\bgzip\b/.test(request.headers['accept-encoding'] ?? '')
      ) {
        return reply.send(payload)
      }
      return reply
        .header('content-encoding', 'gzip')
        .header('vary', 'accept-encoding')
        .send(await gzip(payload))
    },
  )
}
