import { rpcCodes, rpcError } from './answer.ts'
import type { ChainCache } from './cache.ts'
import type { Call } from './calls.ts'
import { UpstreamUnavailableError, type UpstreamPool } from './upstream.ts'

// Step 3 of the gateway (gateway.ts): the calls no earlier step answered go to the chain's
// upstreams. Each gets what its upstream answered (with the client's id back in place), or a
// JSON-RPC error saying none could; the cache sees every answer that came back.

/** How forwarding went, for the reply's status (step 4). */
export interface Forwarded {
  /** Calls no upstream answered. */
  failed: number
  /** Whether the last upstream tried for any of them was throttling (429). */
  throttled: boolean
  /** The throttling upstream's `Retry-After`, passed on. */
  retryAfter: string | undefined
}

export async function forward(
  calls: Call[],
  pool: UpstreamPool,
  cache: ChainCache,
): Promise<Forwarded> {
  const forwarded: Forwarded = { failed: 0, throttled: false, retryAfter: undefined }
  if (calls.length === 0) return forwarded
  const settled = await Promise.allSettled(calls.map((call) => pool.request(call)))
  settled.forEach((outcome, index) => {
    const call = calls[index]!
    if (outcome.status === 'fulfilled') {
      cache.keep(call, outcome.value)
      call.answer = { ...outcome.value, id: call.id }
      return
    }
    const error: unknown = outcome.reason
    // Anything else is the gateway's own bug: the error handlers log it and answer 500.
    if (!(error instanceof UpstreamUnavailableError)) throw error
    forwarded.failed++
    forwarded.throttled ||= error.throttled
    forwarded.retryAfter ??= error.retryAfter
    call.answer = error.throttled
      ? rpcError(
          call.id,
          rpcCodes.limitExceeded,
          'Limit exceeded: the upstream nodes are throttling, retry later.',
        )
      : rpcError(
          call.id,
          rpcCodes.resourceUnavailable,
          'Resource unavailable: no upstream node answered, retry later.',
        )
  })
  return forwarded
}
