import { rpcError, type JsonRpcAnswer, type JsonRpcId } from './answer.ts'
import { AnswerCache } from './cache.ts'
import type { RpcGatewayConfig } from './config.ts'
import {
  allowedMethods,
  blockNumberOf,
  isCacheable,
  isCacheableWhenFinal,
  goesAlone,
  isSharedRead,
} from './methods.ts'
import {
  UpstreamPool,
  UpstreamUnavailableError,
  type ForwardedCall,
  type UpstreamFailureLog,
} from './upstream.ts'

/** JSON-RPC error codes the gateway answers with (JSON-RPC 2.0, EIP-1474, EIP-1193). */
export const rpcCodes = {
  parseError: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  internal: -32603,
  resourceUnavailable: -32002,
  limitExceeded: -32005,
  unauthorized: 4100,
  chainNotServed: 4901,
} as const

export interface GatewayReply {
  status: number
  /** One answer, an array for a batch, or undefined when only notifications came (204). */
  body: JsonRpcAnswer | JsonRpcAnswer[] | undefined
  retryAfter?: string
}

interface Pending {
  index: number
  call: ForwardedCall
  cacheKey: string | undefined
  /** Cached only once its block is `finalityBlocks` deep. */
  whenFinal: boolean
}

const isId = (id: unknown): id is JsonRpcId =>
  typeof id === 'string' || id === null || (typeof id === 'number' && Number.isFinite(id))

/**
 * The RPC gateway without HTTP: checks each call, answers from the cache what never changes,
 * forwards the rest to the chain's upstreams in one request, and returns valid JSON-RPC in every
 * case.
 */
export class RpcGateway {
  readonly #pools = new Map<number, UpstreamPool>()
  readonly #caches = new Map<number, AnswerCache>()
  /** The highest block number each chain's upstreams answered `eth_blockNumber` with. */
  readonly #heads = new Map<number, bigint>()

  constructor(
    private readonly config: RpcGatewayConfig,
    onUpstreamFailure?: (chainId: number, failure: Parameters<UpstreamFailureLog>[0]) => void,
    onUpstreamAttempt?: (chainId: number, outcome: string, seconds: number) => void,
    /** Told of every call that could be answered from the cache, and whether it was. */
    private readonly onCacheLookup?: (chainId: number, hit: boolean) => void,
  ) {
    for (const [chainId, urls] of config.upstreams) {
      this.#pools.set(
        chainId,
        new UpstreamPool(urls, {
          timeoutMs: config.timeoutMs,
          maxBatch: config.upstreamBatch,
          shareable: isSharedRead,
          alone: goesAlone,
          onFailure: (f) => onUpstreamFailure?.(chainId, f),
          onAttempt: (outcome, seconds) => onUpstreamAttempt?.(chainId, outcome, seconds),
        }),
      )
      this.#caches.set(chainId, new AnswerCache())
    }
  }

  serves(chainId: number): boolean {
    return this.#pools.has(chainId)
  }

  async handle(chainId: number, body: unknown): Promise<GatewayReply> {
    const pool = this.#pools.get(chainId)
    const cache = this.#caches.get(chainId)
    if (!pool || !cache) {
      return {
        status: 404,
        body: rpcError(
          null,
          rpcCodes.chainNotServed,
          `Chain ${chainId} is not served by this gateway.`,
        ),
      }
    }
    const batch = Array.isArray(body)
    const calls: unknown[] = batch ? body : [body]
    if (batch && calls.length === 0) {
      return {
        status: 400,
        body: rpcError(null, rpcCodes.invalidRequest, 'Invalid request: the batch is empty.'),
      }
    }
    if (calls.length > this.config.maxBatch) {
      const message = `Invalid request: a batch may hold at most ${this.config.maxBatch} calls (got ${calls.length}).`
      return { status: 400, body: rpcError(null, rpcCodes.invalidRequest, message) }
    }

    const answers: (JsonRpcAnswer | undefined)[] = new Array(calls.length)
    const ids: JsonRpcId[] = new Array(calls.length)
    const notification: boolean[] = new Array(calls.length)
    const pending: Pending[] = []
    calls.forEach((raw, index) => {
      const call = raw as {
        jsonrpc?: unknown
        id?: unknown
        method?: unknown
        params?: unknown
      } | null
      const id = typeof call === 'object' && call !== null && isId(call.id) ? call.id : null
      ids[index] = id
      notification[index] =
        typeof call === 'object' && call !== null && !Array.isArray(call) && !('id' in call)
      if (
        typeof call !== 'object' ||
        call === null ||
        Array.isArray(call) ||
        call.jsonrpc !== '2.0' ||
        typeof call.method !== 'string' ||
        ('id' in call && !isId(call.id)) ||
        (call.params !== undefined && typeof call.params !== 'object')
      ) {
        notification[index] = false
        answers[index] = rpcError(
          id,
          rpcCodes.invalidRequest,
          'Invalid request: expected { jsonrpc: "2.0", id, method, params }.',
        )
        return
      }
      if (!allowedMethods.has(call.method)) {
        answers[index] = rpcError(
          id,
          rpcCodes.methodNotFound,
          // geth's wording: clients (ethers) recognise it and fall back, e.g. from filters to
          // polling with eth_getLogs.
          `the method ${call.method.slice(0, 64)} does not exist/is not available`,
        )
        return
      }
      const whenFinal = isCacheableWhenFinal(call.method, call.params)
      const cacheKey =
        whenFinal || isCacheable(call.method, call.params)
          ? `${call.method}:${JSON.stringify(call.params ?? [])}`
          : undefined
      const hit = cacheKey === undefined ? undefined : cache.get(cacheKey)
      if (cacheKey !== undefined) this.onCacheLookup?.(chainId, hit !== undefined)
      if (hit !== undefined) {
        answers[index] = { jsonrpc: '2.0', id, result: hit }
        return
      }
      const forwarded: ForwardedCall = { method: call.method }
      if (call.params !== undefined) forwarded.params = call.params
      pending.push({ index, call: forwarded, cacheKey, whenFinal })
    })

    let status = 200
    let retryAfter: string | undefined
    if (pending.length) {
      const settled = await Promise.allSettled(pending.map((p) => pool.request(p.call)))
      let failures = 0
      let throttled = false
      settled.forEach((outcome, n) => {
        const { index, cacheKey, whenFinal, call } = pending[n]!
        if (outcome.status === 'fulfilled') {
          const answer = outcome.value
          if ('result' in answer) {
            if (call.method === 'eth_blockNumber') this.#noteHead(chainId, answer.result)
            if (
              cacheKey !== undefined &&
              answer.result !== null &&
              (!whenFinal || this.#isFinal(chainId, answer.result))
            ) {
              cache.set(cacheKey, answer.result)
            }
          }
          answers[index] = { ...answer, id: ids[index]! }
          return
        }
        const error = outcome.reason
        if (!(error instanceof UpstreamUnavailableError)) throw error
        failures++
        throttled ||= error.throttled
        retryAfter ??= error.retryAfter
        answers[index] = error.throttled
          ? rpcError(
              ids[index]!,
              rpcCodes.limitExceeded,
              'Limit exceeded: the upstream nodes are throttling, retry later.',
            )
          : rpcError(
              ids[index]!,
              rpcCodes.resourceUnavailable,
              'Resource unavailable: no upstream node answered, retry later.',
            )
      })
      // Nothing got through: the HTTP status says so too, so clients fail over or back off.
      if (failures === pending.length && failures === calls.length) status = throttled ? 429 : 502
    }

    if (!batch) {
      const answer = answers[0]!
      if (notification[0]) return { status: 204, body: undefined }
      if (status === 200 && 'error' in answer && answer.error.code === rpcCodes.invalidRequest)
        status = 400
      return { status, body: answer, ...(retryAfter ? { retryAfter } : {}) }
    }
    const out = answers.filter((answer, index) => answer && !notification[index]) as JsonRpcAnswer[]
    return {
      status: out.length ? status : 204,
      body: out.length ? out : undefined,
      ...(retryAfter ? { retryAfter } : {}),
    }
  }

  #noteHead(chainId: number, result: unknown) {
    if (typeof result !== 'string' || !/^0x[0-9a-fA-F]{1,16}$/.test(result)) return
    const head = BigInt(result)
    if (head > (this.#heads.get(chainId) ?? -1n)) this.#heads.set(chainId, head)
  }

  /** Whether an answer's block is at least `finalityBlocks` below the head seen so far. */
  #isFinal(chainId: number, result: unknown): boolean {
    const block = blockNumberOf(result)
    const head = this.#heads.get(chainId)
    return (
      block !== undefined &&
      head !== undefined &&
      head - block >= BigInt(this.config.finalityBlocks)
    )
  }

  close(): void {
    for (const pool of this.#pools.values()) pool.close()
  }
}
