import http, { type IncomingMessage, type ServerResponse } from 'node:http'
import { unauthorized, type HttpError } from '../errors.ts'
import { rpcErrorAnswer } from './error-handler.ts'
import type { RpcGateway } from './gateway.ts'
import { parseRpcBody, type RpcAccess } from './access.ts'
import { httpReply } from './reply.ts'

// The gateway's hot path. A JSON-RPC call through a proxy is worth little if the proxy costs
// more than the node: through Fastify's route (its hooks, schema validation, the app's strict
// body parser, reply serialisation) the server spent about 160 µs of CPU per call, four times
// what the node spends answering it. Here the server's `request` event answers the common case
// itself: `POST /api/rpc/<chain>` with an API key, a JSON body of known length and no encoding,
// which is what ethers, viem and web3.js send. Everything it does is what the route does
// (rpc/access.ts is shared by both): the same limits charged in the same order, the same key
// check, the same JSON-RPC errors, the same safety headers, request id and metrics. Any other
// request (a session instead of a key, chunked or compressed bodies, wrong methods or types)
// goes to Fastify, whose route answers it as before.

const PREFIX = '/api/rpc/'
const CHAIN = /^[0-9]{1,15}$/
const JSON_TYPE = /^application\/json\s*(?:;|$)/i

/** The RPC gateway's parts its lean path needs, known once its routes are registered. */
export interface LeanRpcParts {
  gateway?: RpcGateway
  access?: RpcAccess
}

export interface LeanPathOptions {
  gateway: () => RpcGateway | undefined
  access: () => RpcAccess | undefined
  bodyLimit: number
  requestId: (request: IncomingMessage) => string
  clientAddress: (request: IncomingMessage) => string
  /** Headers every JSON answer carries (security headers), computed once. */
  headers: Record<string, string>
  /** Records the request in the metrics, as the route's hook does. */
  observe: (status: number, seconds: number) => void
  onError: (error: unknown, requestId: string) => void
}

/** The server's request listener for the fast case; returns false for Fastify to answer. */
export function leanRpcPath(options: LeanPathOptions) {
  return (request: IncomingMessage, response: ServerResponse): boolean => {
    if (request.method !== 'POST') return false
    const url = request.url
    if (url === undefined || !url.startsWith(PREFIX)) return false
    const chain = url.slice(PREFIX.length)
    if (!CHAIN.test(chain)) return false
    const key = request.headers['x-api-key']
    if (typeof key !== 'string' || key === '') return false
    const { headers } = request
    if (!JSON_TYPE.test(headers['content-type'] ?? '')) return false
    if (headers['content-encoding'] !== undefined || headers['transfer-encoding'] !== undefined)
      return false
    const length = Number(headers['content-length'])
    if (!Number.isInteger(length) || length > options.bodyLimit) return false
    const gateway = options.gateway()
    const access = options.access()
    if (!gateway || !access) return false
    void serve(options, gateway, access, request, response, Number(chain), key)
    return true
  }
}

async function serve(
  options: LeanPathOptions,
  gateway: RpcGateway,
  access: RpcAccess,
  request: IncomingMessage,
  response: ServerResponse,
  chainId: number,
  key: string,
) {
  const started = performance.now()
  const id = options.requestId(request)
  const extra: Record<string, string> = {}
  let status: number
  let payload: string | Buffer | undefined
  try {
    const address = options.clientAddress(request)
    await access.chargeAddress(address, 1, extra)
    const keyId = await access.keys.verify(key)
    if (!keyId) throw unauthorized('The API key is not valid.', 'invalid_api_key')
    const body = parseRpcBody(await readBody(request))
    await access.chargeCalls(address, `key:${keyId}`, body, extra)
    const answer = await gateway.handle(chainId, body)
    const sent = await httpReply(answer, request.headers['accept-encoding'])
    status = sent.status
    payload = sent.payload
    Object.assign(extra, sent.headers)
  } catch (error) {
    // A refusal (limits, key, body) is answered as the route answers it; only the server's own
    // failures (500) are logged, as the route's error handler does.
    const answer = rpcErrorAnswer(error as HttpError)
    if (answer.status === 500) options.onError(error, id)
    status = answer.status
    payload = JSON.stringify(answer.body)
  }
  if (!request.complete) request.resume() // refused before the body was read: drain it
  response.writeHead(status, {
    ...options.headers,
    ...extra,
    'x-request-id': id,
    ...(payload === undefined
      ? {}
      : {
          'content-type': 'application/json; charset=utf-8',
          'content-length': String(Buffer.byteLength(payload)),
        }),
  })
  response.end(payload)
  options.observe(status, (performance.now() - started) / 1000)
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.once('end', () =>
      resolve(chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks).toString()),
    )
    request.once('error', reject)
  })
}

/**
 * The HTTP/1 server Fastify would make, with `lean` answering first: the same time-outs, so a
 * client that stalls (slow headers, a body that stops, a silent connection) is cut off on
 * either path.
 */
export function httpServer(
  timeouts: { headersMs: number; requestMs: number; idleMs: number },
  lean: (request: IncomingMessage, response: ServerResponse) => boolean,
  fastify: (request: IncomingMessage, response: ServerResponse) => void,
): http.Server {
  const server = http.createServer(
    {
      headersTimeout: timeouts.headersMs,
      // How often Node checks the limits (its default, 30 s, would let them overrun).
      connectionsCheckingInterval: Math.max(100, Math.min(1_000, timeouts.headersMs / 4)),
    },
    (request, response) => {
      if (!lean(request, response)) fastify(request, response)
    },
  )
  server.requestTimeout = timeouts.requestMs
  server.keepAliveTimeout = timeouts.idleMs
  server.setTimeout(timeouts.idleMs)
  return server
}
