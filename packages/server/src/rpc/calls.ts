import { rpcCodes, rpcError, type JsonRpcAnswer, type JsonRpcId } from './answer.ts'
import { allowedMethods } from './methods.ts'

// Step 1 of the gateway (gateway.ts): a request body read into its calls. A call that is not
// JSON-RPC, or asks for a method the gateway does not serve, is answered here; the others are
// left for the cache (step 2) and the upstreams (step 3).

/** One call of a request, in the order it came; each step that answers it sets `answer`. */
export interface Call {
  /** The client's id, echoed in the answer; null when it sent none or one JSON-RPC forbids. */
  id: JsonRpcId
  /** Sent without an id: run, never answered. */
  notification: boolean
  /** A served method; empty when the call was refused as read. */
  method: string
  params?: unknown
  /** Set by the cache step when the answer may be kept (`whenFinal`: only once final). */
  cacheable?: { key: string; whenFinal: boolean }
  answer?: JsonRpcAnswer
}

/** What the gateway answers an HTTP request with (reply.ts builds it). */
export interface GatewayReply {
  status: number
  /** One answer, an array for a batch, or undefined when only notifications came (204). */
  body: JsonRpcAnswer | JsonRpcAnswer[] | undefined
  retryAfter?: string
}

/** A request's calls, or the reply that refuses the whole request. */
export type ReadCalls = { batch: boolean; calls: Call[] } | { refused: GatewayReply }

const isId = (id: unknown): id is JsonRpcId =>
  typeof id === 'string' || id === null || (typeof id === 'number' && Number.isFinite(id))

/** Reads a parsed body (one call or a batch of at most `maxBatch`) into its calls. */
export function readCalls(body: unknown, maxBatch: number): ReadCalls {
  const batch = Array.isArray(body)
  const raw: unknown[] = batch ? body : [body]
  if (batch && raw.length === 0) {
    const message = 'Invalid request: the batch is empty.'
    return { refused: { status: 400, body: rpcError(null, rpcCodes.invalidRequest, message) } }
  }
  if (raw.length > maxBatch) {
    const message = `Invalid request: a batch may hold at most ${maxBatch} calls (got ${raw.length}).`
    return { refused: { status: 400, body: rpcError(null, rpcCodes.invalidRequest, message) } }
  }
  return { batch, calls: raw.map(readCall) }
}

function readCall(raw: unknown): Call {
  const call = raw as { jsonrpc?: unknown; id?: unknown; method?: unknown; params?: unknown }
  const object = typeof call === 'object' && call !== null && !Array.isArray(call)
  const id = object && isId(call.id) ? call.id : null
  if (
    !object ||
    call.jsonrpc !== '2.0' ||
    typeof call.method !== 'string' ||
    ('id' in call && !isId(call.id)) ||
    (call.params !== undefined && typeof call.params !== 'object')
  ) {
    // Never a notification: a call the gateway cannot read is always answered.
    const message = 'Invalid request: expected { jsonrpc: "2.0", id, method, params }.'
    return refused(id, false, rpcError(id, rpcCodes.invalidRequest, message))
  }
  const notification = !('id' in call)
  if (!allowedMethods.has(call.method)) {
    // geth's wording: clients (ethers) recognise it and fall back, e.g. from filters to
    // polling with eth_getLogs.
    const message = `the method ${call.method.slice(0, 64)} does not exist/is not available`
    return refused(id, notification, rpcError(id, rpcCodes.methodNotFound, message))
  }
  const read: Call = { id, notification, method: call.method }
  if (call.params !== undefined) read.params = call.params
  return read
}

const refused = (id: JsonRpcId, notification: boolean, answer: JsonRpcAnswer): Call => ({
  id,
  notification,
  method: '',
  answer,
})
