import type { FastifyBaseLogger } from 'fastify'
import type { Block, PublicClient } from 'viem'
import type { Database } from '../db/client.ts'
import type { ObjectStore } from '../objects/store.ts'
import { rowOf } from './decode.ts'
import type { Sync } from './definition.ts'
import { AdaptiveRange } from './range.ts'
import { commitRange, KEPT_BLOCKS, recentBlocks, startProgress, type SyncRow } from './store.ts'

// One contract-event sync: backfill from the start block in adaptive `eth_getLogs` ranges,
// then follow the head. Each step first checks that the newest recorded block is still on the
// chain (a reorg otherwise: walk back to the last block that is, drop the rows above it, read
// again from there), then reads one range and commits it (store.ts).

export interface SyncStatus {
  name: string
  chainId: number
  className: string
  /** Backfilling (the head not reached yet since the start) or following the head. */
  mode: 'starting' | 'backfill' | 'following'
  nextBlock: string
  head: string | undefined
  blocksLeft: string | undefined
  /** Rows written per second over the last minute. */
  eventsPerSecond: number
  rows: number
  /** Blocks per `eth_getLogs` now. */
  range: number
  lastError: string | undefined
}

export class Syncer {
  private next = 0n
  private head: bigint | undefined
  /** The head of the last commit (its confirmations are applied). */
  private committedHead: bigint | undefined
  private readonly range: AdaptiveRange
  private rows = 0
  private readonly recent: { at: number; rows: number }[] = []
  private lastError: string | undefined
  private started = false
  /** The head was reached once since the start: from then on the sync follows it. */
  private reachedHead = false

  constructor(
    private readonly db: Database,
    /** Each range's rows are written through it, in one transaction with the sync's progress. */
    private readonly objects: ObjectStore,
    readonly sync: Sync,
    private readonly client: PublicClient,
    private readonly log: FastifyBaseLogger,
  ) {
    this.range = new AdaptiveRange(sync.maxRange)
  }

  status(): SyncStatus {
    const minuteAgo = Date.now() - 60_000
    const recent = this.recent.filter((r) => r.at >= minuteAgo)
    const span = recent.length ? Math.max(1, (Date.now() - recent[0]!.at) / 1000) : 1
    const left =
      this.head === undefined ? undefined : this.head >= this.next ? this.head - this.next + 1n : 0n
    return {
      name: this.sync.name,
      chainId: this.sync.chainId,
      className: this.sync.className,
      mode: !this.started ? 'starting' : this.reachedHead ? 'following' : 'backfill',
      nextBlock: this.next.toString(),
      head: this.head?.toString(),
      blocksLeft: left?.toString(),
      eventsPerSecond: Math.round(recent.reduce((n, r) => n + r.rows, 0) / span),
      rows: this.rows,
      range: this.range.size,
      lastError: this.lastError,
    }
  }

  /** Runs until `signal` aborts; a failing step is retried with backoff. */
  async run(signal: AbortSignal): Promise<void> {
    let failures = 0
    let lastReport = 0
    while (!signal.aborted) {
      let wait = 0
      try {
        if (!this.started) {
          this.next = await startProgress(this.db, this.sync)
          this.started = true
        }
        const more = await this.step()
        if (!more) this.reachedHead = true
        failures = 0
        this.lastError = undefined
        wait = more ? 0 : this.sync.pollMs
      } catch (error) {
        failures++
        this.lastError =
          error instanceof Error ? error.message.split('\n')[0]!.slice(0, 300) : String(error)
        this.log.warn({ sync: this.sync.name, err: error }, 'contract sync step failed; retrying')
        wait = Math.min(30_000, 250 * 2 ** Math.min(failures, 7))
      }
      if (Date.now() - lastReport > 10_000 && this.status().mode === 'backfill') {
        lastReport = Date.now()
        const s = this.status()
        this.log.info(
          {
            sync: s.name,
            nextBlock: s.nextBlock,
            blocksLeft: s.blocksLeft,
            eventsPerSecond: s.eventsPerSecond,
          },
          'contract sync backfilling',
        )
      }
      if (wait) await sleep(wait, signal)
    }
  }

  /** One range; true when more blocks are waiting. */
  async step(): Promise<boolean> {
    const head = await this.client.getBlockNumber({ cacheTime: 0 })
    this.head = head
    const dropAfter = await this.findReorg()
    if (dropAfter !== undefined) {
      this.log.warn(
        { sync: this.sync.name, dropAfter: dropAfter.toString() },
        'chain reorganised: dropping rows of later blocks',
      )
      this.next = dropAfter + 1n
    }
    const confirmThrough = head - BigInt(this.sync.confirmations) + 1n
    const from = this.next
    if (from > head) {
      // Nothing new since the last commit: no rows, no confirmations, no reorg.
      if (dropAfter === undefined && head === this.committedHead) return false
      await commitRange(this.objects, this.sync, {
        dropAfter,
        rows: [],
        blocks: [],
        confirmThrough,
        nextBlock: from,
        head,
      })
      this.committedHead = head
      return false
    }
    const to = minimum(head, from + BigInt(this.range.size) - 1n)
    let logs
    try {
      logs = await this.client.getLogs({
        address: this.sync.addresses,
        events: this.sync.events,
        fromBlock: from,
        toBlock: to,
        strict: true,
      })
    } catch (error) {
      // Too many blocks or results, or too slow: again at once with a smaller range.
      if (this.range.failed()) return true
      throw error
    }
    this.range.succeeded()
    // Blocks whose time the rows need, and the recent ones whose hashes detect a reorg.
    const keepFrom = head - KEPT_BLOCKS - BigInt(this.sync.confirmations)
    const numbers = new Set<bigint>(logs.map((log) => log.blockNumber!))
    for (let n = maximum(from, keepFrom); n <= to; n++) numbers.add(n)
    const blocks = new Map<bigint, Block>()
    await Promise.all(
      [...numbers].map(async (number) =>
        blocks.set(number, await this.client.getBlock({ blockNumber: number })),
      ),
    )
    const rows: SyncRow[] = []
    for (const log of logs) {
      const block = blocks.get(log.blockNumber!)!
      // The chain moved under this step (a reorg between the calls): read again next step.
      if (block.hash !== log.blockHash)
        throw new Error('a block changed while it was read; reading again')
      const row = rowOf(this.sync.events, log, {
        chainId: this.sync.chainId,
        blockTimestamp: new Date(Number(block.timestamp) * 1000),
        confirmed: log.blockNumber! <= confirmThrough,
      })
      if (row)
        rows.push({
          id: row.id,
          blockNumber: log.blockNumber!,
          confirmed: log.blockNumber! <= confirmThrough,
          data: row.data,
        })
    }
    const kept = [...blocks.values()]
      .filter((block) => block.number! >= keepFrom)
      .map((block) => ({ number: block.number!, hash: block.hash! }))
    const written = await commitRange(this.objects, this.sync, {
      dropAfter,
      rows,
      blocks: kept,
      confirmThrough,
      nextBlock: to + 1n,
      head,
    })
    this.next = to + 1n
    this.committedHead = head
    this.rows += written
    this.recent.push({ at: Date.now(), rows: written })
    while (this.recent.length && this.recent[0]!.at < Date.now() - 60_000) this.recent.shift()
    return to < head
  }

  /** The last block still on the chain when the newest recorded one is not; undefined when it is. */
  private async findReorg(): Promise<bigint | undefined> {
    const recorded = await recentBlocks(this.db, this.sync.name)
    if (recorded.length === 0) return undefined
    for (const [index, block] of recorded.entries()) {
      // A block the node no longer has (or cannot give now) counts as not on the chain: the
      // search goes one block further back, and a wrong guess only rewrites rows it re-reads.
      const current = await this.client
        .getBlock({ blockNumber: block.number })
        .catch(() => undefined)
      if (current?.hash === block.hash) return index === 0 ? undefined : block.number
    }
    return recorded.at(-1)!.number - 1n
  }
}

const minimum = (a: bigint, b: bigint) => (a < b ? a : b)
const maximum = (a: bigint, b: bigint) => (a > b ? a : b)

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms)
    function done() {
      clearTimeout(timer)
      signal.removeEventListener('abort', done)
      resolve()
    }
    signal.addEventListener('abort', done, { once: true })
  })
}
