import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { unauthorized } from '../errors.ts'
import type { ServerConfig } from '../config/server.ts'
import type { WindowCounter } from '../db/cluster/cluster.ts'
import type { ApiKeyVerifier } from './api-keys.ts'

/** What the gateway's routes use of the server's services. */
export interface RpcRouteNeeds {
  config: ServerConfig
  apiKeys: ApiKeyVerifier
  windowCounter: WindowCounter
}
import type { LeanRpcParts } from './lean-path.ts'
import { RpcAccess } from './access.ts'
import { rpcErrorHandler } from './error-handler.ts'
import { RpcGateway } from './gateway.ts'
import { httpReply } from './reply.ts'

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

/**
 * `POST /api/rpc/:chainId`: the JSON-RPC gateway. Upstream node URLs stay
 * on the server; callers authenticate with an API key (`x-api-key`) or a session; each caller IP
 * and each key or user is rate-limited.
 */
export const rpcRoutes = fp<{ services: RpcRouteNeeds; leanPath: LeanRpcParts }>(
  async function rpcRoutes(app: FastifyInstance, { services, leanPath }) {
    const config = services.config.rpc
    const gateway = new RpcGateway({
      config,
      onUpstreamFailure: (chainId, failure) =>
        app.log.warn({ chainId, ...failure }, 'rpc upstream attempt failed'),
      onUpstreamAttempt: (chainId, outcome, seconds) =>
        app.upstreamAttempt(chainId, outcome, seconds),
      onCacheLookup: (chainId, hit) => app.rpcCacheLookup(chainId, hit),
    })
    const keys = services.apiKeys
    app.addHook('onClose', async () => gateway.close())
    app.setErrorHandler(rpcErrorHandler)
    app.decorateRequest('rpcCaller', '')
    const access = new RpcAccess(keys, services.windowCounter, config)
    // The lean path (rpc/lean-path.ts) answers most key-authenticated calls with the same parts.
    leanPath.gateway = gateway
    leanPath.access = access
    /** Runs a charge; a refusal's `retry-after` goes on the reply. */
    const charged = async (
      reply: FastifyReply,
      charge: (headers: Record<string, string>) => Promise<void>,
    ) => {
      const headers: Record<string, string> = {}
      try {
        await charge(headers)
      } finally {
        reply.headers(headers)
      }
    }

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
        onRequest: [
          (request, reply) => charged(reply, (h) => access.chargeAddress(request.ip, 1, h)),
          authenticate,
        ],
        preHandler: (request, reply) =>
          charged(reply, (h) => access.chargeCalls(request.ip, request.rpcCaller, request.body, h)),
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
        const answer = await gateway.handle(Number(request.params.chainId), request.body)
        const sent = await httpReply(answer, request.headers['accept-encoding'])
        reply.status(sent.status).headers(sent.headers)
        if (sent.payload === undefined) return reply.send()
        return reply.type('application/json; charset=utf-8').send(sent.payload)
      },
    )
  },
  { name: 'portico-rpc', dependencies: ['portico-current-user'], encapsulate: true },
)
