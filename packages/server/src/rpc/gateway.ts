import { rpcCodes, rpcError } from './answer.ts'
import { ChainCache } from './cache.ts'
import { readCalls } from './calls.ts'
import type { RpcGatewayConfig } from '../config/rpc.ts'
import { forward } from './forward.ts'
import { goesAlone, isSharedRead } from './methods.ts'
import { reply, type GatewayReply } from './reply.ts'
import { UpstreamPool, type UpstreamFailure } from './upstream.ts'

export interface RpcGatewayOptions {
  config: RpcGatewayConfig
  /** Told of every failed upstream attempt, by position and reason (never the URL). */
  onUpstreamFailure?: (chainId: number, failure: UpstreamFailure) => void
  /** Told the outcome (`ok` or the failure reason) and duration of every upstream attempt. */
  onUpstreamAttempt?: (chainId: number, outcome: string, seconds: number) => void
  /** Told of every call that could be answered from the cache, and whether it was. */
  onCacheLookup?: (chainId: number, hit: boolean) => void
}

/** What the gateway keeps per chain it serves. */
interface Chain {
  pool: UpstreamPool
  cache: ChainCache
}

/**
 * The RPC gateway without HTTP: checks each call, answers from the cache what never changes,
 * forwards the rest to the chain's upstreams in one request, and returns valid JSON-RPC in every
 * case. Its two ways in (rpc/routes.ts, rpc/lean-path.ts) send what `handle` returns.
 */
export class RpcGateway {
  readonly #chains = new Map<number, Chain>()
  readonly #maxBatch: number

  constructor({ config, onUpstreamFailure, onUpstreamAttempt, onCacheLookup }: RpcGatewayOptions) {
    this.#maxBatch = config.maxBatch
    for (const [chainId, urls] of config.upstreams) {
      const pool = new UpstreamPool(urls, {
        timeoutMs: config.timeoutMs,
        maxBatch: config.upstreamBatch,
        shareable: isSharedRead,
        alone: goesAlone,
        onFailure: (failure) => onUpstreamFailure?.(chainId, failure),
        onAttempt: (outcome, seconds) => onUpstreamAttempt?.(chainId, outcome, seconds),
      })
      const cache = new ChainCache({
        finalityBlocks: config.finalityBlocks,
        onLookup: onCacheLookup && ((hit) => onCacheLookup(chainId, hit)),
      })
      this.#chains.set(chainId, { pool, cache })
    }
  }

  serves(chainId: number): boolean {
    return this.#chains.has(chainId)
  }

  /** Answers a parsed request body: one JSON-RPC call or a batch. */
  async handle(chainId: number, body: unknown): Promise<GatewayReply> {
    const chain = this.#chains.get(chainId)
    if (!chain) {
      const message = `Chain ${chainId} is not served by this gateway.`
      return { status: 404, body: rpcError(null, rpcCodes.chainNotServed, message) }
    }
    const read = readCalls(body, this.#maxBatch) // 1. parse calls (calls.ts)
    if ('refused' in read) return read.refused
    const left = chain.cache.answer(read.calls) // 2. cache (cache.ts)
    const forwarded = await forward(left, chain.pool, chain.cache) // 3. forward (forward.ts)
    return reply(read.batch, read.calls, forwarded) // 4. reply (reply.ts)
  }

  close(): void {
    for (const { pool } of this.#chains.values()) pool.close()
  }
}
