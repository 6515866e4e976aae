import secureJson from 'secure-json-parse'
import { badRequest, HttpError } from '../errors.ts'
import { nestingTooDeep } from '../http/json-body.ts'
import type { WindowCounter } from '../db/cluster/cluster.ts'
import type { ApiKeyVerifier } from './api-keys.ts'

// What the gateway's two ways in (the Fastify route and the lean path, rpc/lean-path.ts) share
// before the gateway, so they cannot drift apart: the limits and the body rule. (What they share
// after it, the answer's bytes and headers, is `httpReply` in rpc/reply.ts.)

/** Calls in a request body: each call of a batch counts against the limits. */
export const callsIn = (body: unknown) => (Array.isArray(body) ? Math.max(body.length, 1) : 1)

/**
 * The two limits (per address, then per key or user), counted in calls rather than requests: a
 * batch of 100 calls costs 100. The address is charged one call before authentication (a cheap
 * flood guard) and the rest once the body is read. A refusal is a 429 whose `retry-after`
 * header is added to `headers`.
 */
export class RpcAccess {
  constructor(
    readonly keys: ApiKeyVerifier,
    private readonly counter: WindowCounter,
    private readonly limits: { rateLimitPerIp: number; rateLimitPerKey: number },
  ) {}

  chargeAddress(address: string, calls: number, headers: Record<string, string>) {
    return this.#charge(`ip:${address}`, calls, this.limits.rateLimitPerIp, 'This address', headers)
  }

  /** Charges the rest of a body's calls to the address, and all of them to the caller. */
  async chargeCalls(
    address: string,
    caller: string,
    body: unknown,
    headers: Record<string, string>,
  ): Promise<void> {
    const calls = callsIn(body)
    if (calls > 1) await this.chargeAddress(address, calls - 1, headers)
    await this.#charge(caller, calls, this.limits.rateLimitPerKey, 'This API key or user', headers)
  }

  async #charge(
    who: string,
    calls: number,
    max: number,
    name: string,
    headers: Record<string, string>,
  ) {
    const { count, ttlMs } = await this.counter.add(`rpc|${who}`, calls, 60_000, max)
    if (count <= max) return
    const seconds = Math.max(1, Math.ceil(ttlMs / 1000))
    headers['retry-after'] = String(seconds)
    const message = `${name} may send ${max} calls per minute; retry in ${seconds} s.`
    throw new HttpError(429, 'rate_limited', message)
  }
}

/**
 * A request body as the gateway needs it: JSON (no prototype-poisoning keys, nesting bounded),
 * an object or an array; each call is checked by the gateway itself.
 */
export function parseRpcBody(text: string): unknown {
  if (text === '') throw badRequest('The JSON body is empty.', 'invalid_json')
  if (nestingTooDeep(text)) throw badRequest('The JSON body nests too deep.', 'json_too_deep')
  let body: unknown
  try {
    // The poisoning scan is needed only when the text could hold such a key.
    body =
      text.includes('__proto__') || text.includes('constructor')
        ? secureJson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' })
        : JSON.parse(text)
  } catch {
    throw badRequest('The body is not valid JSON.', 'invalid_json')
  }
  if (typeof body !== 'object' || body === null) {
    throw badRequest('body must be a JSON-RPC request object or an array of them')
  }
  return body
}
