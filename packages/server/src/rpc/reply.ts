import { promisify } from 'node:util'
import zlib from 'node:zlib'
import { rpcCodes } from './answer.ts'
import type { Call, GatewayReply } from './calls.ts'

export type { GatewayReply } from './calls.ts'
import type { Forwarded } from './forward.ts'

// Step 4 of the gateway (gateway.ts): the answered calls become one reply, then the bytes and
// headers both ways in (the Fastify route and the lean path) send.

/** The reply to a request whose every call has its answer. */
export function reply(batch: boolean, calls: Call[], forwarded: Forwarded): GatewayReply {
  const retryAfter = forwarded.retryAfter ? { retryAfter: forwarded.retryAfter } : {}
  // Nothing got through: the HTTP status says so too, so clients fail over or back off.
  let status = forwarded.failed === calls.length ? (forwarded.throttled ? 429 : 502) : 200
  if (!batch) {
    const [call] = calls
    if (call!.notification) return { status: 204, body: undefined }
    const answer = call!.answer!
    if (status === 200 && 'error' in answer && answer.error.code === rpcCodes.invalidRequest)
      status = 400
    return { status, body: answer, ...retryAfter }
  }
  const answers = calls.filter((call) => !call.notification).map((call) => call.answer!)
  return answers.length
    ? { status, body: answers, ...retryAfter }
    : { status: 204, body: undefined, ...retryAfter }
}

const gzip = promisify(zlib.gzip)
/** Most JSON-RPC answers are a few hundred bytes; only large ones (logs, full blocks) are worth gzip. */
const gzipAbove = 16 * 1024

/** What goes on the wire: the status, the headers the reply needs, and its bytes (none: 204). */
export interface HttpReply {
  status: number
  headers: Record<string, string>
  payload: string | Buffer | undefined
}

/** A reply's status, headers and bytes, gzipped when large and the client accepts it. */
export async function httpReply(
  reply: GatewayReply,
  acceptEncoding: string | undefined,
): Promise<HttpReply> {
  const headers: Record<string, string> = reply.retryAfter
    ? { 'retry-after': reply.retryAfter }
    : {}
  if (reply.body === undefined) return { status: 204, headers, payload: undefined }
  const payload = JSON.stringify(reply.body)
  if (payload.length < gzipAbove || !/\bgzip\b/.test(acceptEncoding ?? '')) {
    return { status: reply.status, headers, payload }
  }
  headers['content-encoding'] = 'gzip'
  headers.vary = 'accept-encoding'
  return { status: reply.status, headers, payload: await gzip(payload) }
}
