import type { JsonRpcAnswer } from './answer.ts'
import type { Call } from './calls.ts'
import { blockNumberOf, isCacheable, isCacheableWhenFinal } from './methods.ts'

// Step 2 of the gateway (gateway.ts): calls whose answer never changes are answered from a
// bounded cache; step 3 hands back what the upstreams answered, to keep what may be kept.

/** One chain's answers that never change, and the newest head its upstreams reported. */
export class ChainCache {
  readonly #answers = new AnswerCache()
  /** The highest block number the upstreams answered `eth_blockNumber` with. */
  #head: bigint | undefined

  constructor(
    private readonly options: {
      /** Blocks on top of a transaction's block before its receipt is kept. */
      finalityBlocks: number
      /** Told of every call that could be answered from the cache, and whether it was. */
      onLookup?: ((hit: boolean) => void) | undefined
    },
  ) {}

  /** Answers the calls it holds answers for; returns the calls still unanswered. */
  answer(calls: Call[]): Call[] {
    const left: Call[] = []
    for (const call of calls) {
      if (call.answer) continue
      const whenFinal = isCacheableWhenFinal(call.method, call.params)
      if (whenFinal || isCacheable(call.method, call.params)) {
        const key = `${call.method}:${JSON.stringify(call.params ?? [])}`
        call.cacheable = { key, whenFinal }
        const hit = this.#answers.get(key)
        this.options.onLookup?.(hit !== undefined)
        if (hit !== undefined) {
          call.answer = { jsonrpc: '2.0', id: call.id, result: hit }
          continue
        }
      }
      left.push(call)
    }
    return left
  }

  /** Takes note of an upstream's answer to `call`: keeps it when it never changes. */
  keep(call: Call, answer: JsonRpcAnswer): void {
    if (!('result' in answer)) return
    if (call.method === 'eth_blockNumber') this.#noteHead(answer.result)
    const cacheable = call.cacheable
    if (
      cacheable !== undefined &&
      answer.result !== null &&
      (!cacheable.whenFinal || this.#isFinal(answer.result))
    ) {
      this.#answers.set(cacheable.key, answer.result)
    }
  }

  #noteHead(result: unknown) {
    if (typeof result !== 'string' || !/^0x[0-9a-fA-F]{1,16}$/.test(result)) return
    const head = BigInt(result)
    if (this.#head === undefined || head > this.#head) this.#head = head
  }

  /** Whether an answer's block is at least `finalityBlocks` below the head seen so far. */
  #isFinal(result: unknown): boolean {
    const block = blockNumberOf(result)
    return (
      block !== undefined &&
      this.#head !== undefined &&
      this.#head - block >= BigInt(this.options.finalityBlocks)
    )
  }
}

/**
 * A least-recently-used map of answers that never change (see `isCacheable`), so entries need no
 * expiry. Bounded in bytes, not only in entries: a few large answers (blocks with their
 * transactions, receipts of busy blocks) must not add up to gigabytes. An answer larger than
 * `maxEntryBytes` is not cached at all. Sizes are the length of the answer's JSON text, which is
 * what the cache holds.
 */
export class AnswerCache {
  readonly #entries = new Map<string, { value: unknown; bytes: number }>()
  #bytes = 0

  constructor(
    readonly maxEntries = 10_000,
    readonly maxBytes = 64 * 1024 * 1024,
    readonly maxEntryBytes = 1024 * 1024,
  ) {}

  get(key: string): unknown {
    const entry = this.#entries.get(key)
    if (entry === undefined) return undefined
    this.#entries.delete(key) // re-insert: Map order is the recency order
    this.#entries.set(key, entry)
    return entry.value
  }

  set(key: string, value: unknown): void {
    const bytes = key.length + (JSON.stringify(value)?.length ?? 0)
    this.#forget(key)
    if (bytes > this.maxEntryBytes) return
    this.#entries.set(key, { value, bytes })
    this.#bytes += bytes
    while (this.#bytes > this.maxBytes || this.#entries.size > this.maxEntries) {
      this.#forget(this.#entries.keys().next().value!)
    }
  }

  #forget(key: string): void {
    const entry = this.#entries.get(key)
    if (!entry) return
    this.#entries.delete(key)
    this.#bytes -= entry.bytes
  }

  get size(): number {
    return this.#entries.size
  }

  /** Bytes held, as counted for the bound. */
  get bytes(): number {
    return this.#bytes
  }
}
