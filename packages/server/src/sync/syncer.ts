import type { FastifyBaseLogger } from 'fastify'
import { decodeEventLog, getAddress, toEventSelector, type Hex } from 'viem'
import { isEmbedded, type Database } from '../db/client.ts'
import type { ObjectStore } from '../objects/object-store.ts'
import { dateOf, LogDecoder, type DecodedLog } from './decode.ts'
import type { Sync } from './definition.ts'
import { polledHeads, sleep, type HeadWaiter } from './heads.ts'
import type { NodeClient } from './node-client.ts'
import { AdaptiveRange, EMBEDDED_TARGET_LOGS, TARGET_LOGS } from './range.ts'
import { checkUnchanged, findReorg, hashBeforeRead } from './reorg.ts'
import { commitRange, KEPT_BLOCKS, startProgress } from './store.ts'
import { errorLine, retryWait } from './retry.ts'

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
  /** Every row up to this block is confirmed (unknown until this process's first commit). */
  private confirmedThrough: bigint | undefined
  private readonly decoder: LogDecoder
  /** The contracts the factory created in the blocks read so far. */
  private readonly children = new Set<string>()
  /** Logs past which a range ends at the next block boundary (about twice what it is sized for). */
  private readonly maxLogs: number

  constructor(
    private readonly db: Database,
    /** Each range's rows are written through it, in one transaction with the sync's progress. */
    private readonly objects: ObjectStore,
    readonly sync: Sync,
    /** This sync's own client to the chain's nodes. */
    private readonly client: NodeClient,
    private readonly log: FastifyBaseLogger,
  ) {
    this.range = new AdaptiveRange(
      sync.maxRange,
      isEmbedded(db) ? EMBEDDED_TARGET_LOGS : TARGET_LOGS,
    )
    this.maxLogs = 2 * this.range.targetLogs
    this.decoder = new LogDecoder(sync.events, sync.chainId)
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

  /**
   * Runs until `signal` aborts, looking for new blocks when `heads` announces one (or every
   * `pollMs`); a failing step is retried with backoff.
   */
  async run(signal: AbortSignal, heads: HeadWaiter = polledHeads().waiter()): Promise<void> {
    let failures = 0
    let lastReport = 0
    while (!signal.aborted) {
      let wait = 0
      let caughtUp = false
      try {
        if (!this.started) {
          this.next = await startProgress(this.db, this.sync)
          await this.loadChildren(this.next - 1n)
          this.started = true
        }
        const more = await this.step(signal)
        if (!more) this.reachedHead = true
        failures = 0
        this.lastError = undefined
        caughtUp = !more
      } catch (error) {
        failures++
        this.lastError = errorLine(error)
        this.log.warn({ sync: this.sync.name, err: error }, 'contract sync step failed; retrying')
        wait = retryWait(failures)
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
      else if (caughtUp) await heads.next(this.sync.pollMs, signal)
    }
  }

  /**
   * Reads and commits ranges from the next block; true when more blocks are waiting. Ranges of
   * old blocks (below those whose hashes are kept, so no reorg can touch them) are read ahead
   * (`READ_AHEAD`): the next ranges arrive while this one is written.
   */
  async step(signal?: AbortSignal): Promise<boolean> {
    const head = await this.client.blockNumber()
    this.head = head
    let dropAfter = await this.findReorg()
    if (dropAfter !== undefined) {
      this.log.warn(
        { sync: this.sync.name, dropAfter: dropAfter.toString() },
        'chain reorganised: dropping rows of later blocks',
      )
      this.next = dropAfter + 1n
    }
    const from = this.next
    if (from > head) {
      // Nothing new since the last commit: no rows, no confirmations, no reorg.
      if (dropAfter === undefined && head === this.committedHead) return false
      await this.commit({ rows: [], blocks: [], nextBlock: from }, head, dropAfter)
      return false
    }
    const first = await this.read(from, head)
    if (!first) return true
    const keepFrom = this.keepFrom(head)
    // Ranges read ahead, in order, read one after another (each starts where the last ended):
    // the node prepares the next answer while this process decodes one and writes another.
    const waiting: Promise<RangeRead | undefined>[] = []
    let readFrom = first.nextBlock
    let reading = false
    let stopped = false
    /** Rows of the ranges read ahead and not taken for a commit yet. */
    let heldRows = 0
    const readAhead = () => {
      if (reading || stopped || waiting.length >= READ_AHEAD || signal?.aborted) return
      if (heldRows >= this.maxLogs) return
      if (readFrom > head || readFrom + BigInt(this.range.size) - 1n >= keepFrom) return
      reading = true
      const read = this.read(readFrom, head).then(
        (got) => {
          reading = false
          if (!got) stopped = true
          else {
            heldRows += got.rows.length
            readFrom = got.nextBlock
            readAhead()
          }
          return got
        },
        (error: unknown) => {
          reading = false
          stopped = true
          throw error
        },
      )
      // Its failure is met where it is awaited (below), or dropped with it.
      read.catch(() => {})
      waiting.push(read)
    }
    let range: RangeRead | undefined = first
    readAhead()
    for (;;) {
      await this.commit(range, head, dropAfter)
      dropAfter = undefined
      const committedThrough: bigint = range.nextBlock
      // Written: its rows can go while the next range is awaited.
      range = undefined
      const ahead = waiting.shift()
      if (!ahead) return committedThrough <= head
      const got = await ahead
      if (!got) return true
      heldRows -= got.rows.length
      range = got
      readAhead()
    }
  }

  /**
   * The contracts the factory created up to `through` (the blocks already read, on a start):
   * their events are read from then on. Read in ranges halved while the node refuses them.
   */
  private async loadChildren(through: bigint): Promise<void> {
    if (!this.sync.factory) return
    this.children.clear()
    let size = BigInt(this.sync.maxRange)
    for (let from = this.sync.startBlock; from <= through;) {
      const to = minimum(through, from + size - 1n)
      let created
      try {
        created = await this.createdIn(from, to)
      } catch (error) {
        if (size === 1n) throw error
        size = size / 2n
        continue
      }
      for (const { child } of created) this.children.add(child)
      from = to + 1n
    }
  }

  /** The contracts the factory's event names in blocks `from` to `to`, with their block. */
  private async createdIn(from: bigint, to: bigint): Promise<{ block: bigint; child: string }[]> {
    const factory = this.sync.factory!
    let created: { block: bigint; child: string }[] = []
    await this.client.logs(
      {
        address: factory.addresses,
        topics: [[toEventSelector(factory.event)]],
        fromBlock: from,
        toBlock: to,
      },
      () => {
        created = []
        return (raw) => {
          try {
            const { args } = decodeEventLog({
              abi: [factory.event],
              data: raw.data as Hex,
              topics: raw.topics as [Hex, ...Hex[]],
            })
            const child = (args as Record<string, unknown>)[factory.parameter]
            if (typeof child === 'string')
              created.push({ block: BigInt(raw.blockNumber), child: getAddress(child) })
          } catch {
            // Not the factory's event as declared (another contract's at that address): skipped.
          }
        }
      },
    )
    return created
  }

  /** The lowest block whose hash is kept (reorgs are looked for from there up). */
  private keepFrom(head: bigint): bigint {
    return head - KEPT_BLOCKS - BigInt(this.sync.confirmations)
  }

  /**
   * Reads one range from `from` (its size fitted by `AdaptiveRange`) and decodes its logs as they
   * arrive; undefined when the node refused it (the range is smaller now: read again at once).
   * A range holding more logs than a commit should carry ends early, at a block boundary.
   */
  private async read(from: bigint, head: bigint): Promise<RangeRead | undefined> {
    const to = minimum(head, from + BigInt(this.range.size) - 1n)
    const confirmThrough = head - BigInt(this.sync.confirmations) + 1n
    let rows: DecodedLog[] = []
    let logs = 0
    let last = -1n
    let ordered = true
    let cutAt: bigint | undefined
    let complete = true
    let created: { block: bigint; child: string }[] = []
    const lastHash = await hashBeforeRead(this.client, to, this.keepFrom(head))
    try {
      if (this.sync.factory) created = await this.createdIn(from, to)
      const addresses = [...this.sync.addresses, ...this.children, ...created.map((c) => c.child)]
      if (addresses.length)
        complete = await this.client.logs(
          {
            address: addresses,
            topics: this.decoder.topics(),
            fromBlock: from,
            toBlock: to,
          },
          () => {
            rows = []
            logs = 0
            last = -1n
            ordered = true
            cutAt = undefined
            return (raw) => {
              const block = BigInt(raw.blockNumber)
              if (block < last) ordered = false
              // Enough for one commit: stop where a block begins (logs come in block order).
              if (ordered && logs >= this.maxLogs && block > last) {
                cutAt = block
                return false
              }
              if (block > last) last = block
              logs++
              const row = this.decoder.decode(raw, block <= confirmThrough)
              if (row && (this.sync.keep?.(row.data) ?? true)) rows.push(row)
            }
          },
        )
    } catch (error) {
      // Too many blocks or results, or too slow: again at once with a smaller range.
      if (this.range.failed()) return undefined
      throw error
    }
    const end = complete ? to : cutAt! - 1n
    // Contracts created in the blocks read are followed from now on.
    for (const { block, child } of created) if (block <= end) this.children.add(child)
    this.range.read(Number(end - from + 1n), logs)
    // Times the node did not send with the logs, and the hashes of recent blocks (to find reorgs).
    const keepFrom = this.keepFrom(head)
    const needed = new Set<bigint>()
    for (const row of rows) if (row.timestamp === undefined) needed.add(row.blockNumber)
    for (let n = maximum(from, keepFrom); n <= end; n++) needed.add(n)
    if (lastHash !== undefined) needed.add(to)
    const headers = await this.client.blocks([...needed])
    for (const number of needed)
      if (!headers.has(number)) throw new Error(`the node has no block ${number} yet`)
    for (const row of rows) {
      const header = headers.get(row.blockNumber)
      // The chain moved under this read (a reorg between the calls): read again next step.
      if (header && header.hash !== row.blockHash)
        throw new Error('a block changed while it was read; reading again')
      if (row.timestamp === undefined) row.data.blockTimestamp = dateOf(header!.timestamp)
    }
    checkUnchanged(headers, to, lastHash)
    const blocks = [...headers.values()]
      .filter((block) => block.number >= keepFrom && block.number <= end)
      .map((block) => ({ number: block.number, hash: block.hash }))
    return { rows, blocks, nextBlock: end + 1n }
  }

  /** Commits a range read at `head` (after dropping the rows above `dropAfter`, on a reorg). */
  private async commit(range: RangeRead, head: bigint, dropAfter: bigint | undefined) {
    const confirmThrough = head - BigInt(this.sync.confirmations) + 1n
    const written = await commitRange(this.objects, this.sync, {
      dropAfter,
      rows: range.rows.map((row) => ({
        id: row.id,
        blockNumber: row.blockNumber,
        confirmed: row.data.confirmed === true,
        data: row.data,
      })),
      blocks: range.blocks,
      confirmThrough,
      confirmFrom: this.confirmedThrough,
      keepFrom: this.keepFrom(head),
      nextBlock: range.nextBlock,
      head,
    })
    this.next = range.nextBlock
    this.committedHead = head
    // Every row up to here is confirmed now: later commits look for unconfirmed rows above it.
    this.confirmedThrough = confirmThrough
    this.rows += written
    this.recent.push({ at: Date.now(), rows: written })
    while (this.recent.length && this.recent[0]!.at < Date.now() - 60_000) this.recent.shift()
  }

  /** The last block still on the chain when the newest recorded one is not; undefined when it is. */
  private findReorg(): Promise<bigint | undefined> {
    return findReorg(this.db, this.client, this.sync.name)
  }
}

/** A range read and decoded, waiting to be committed. */
interface RangeRead {
  rows: DecodedLog[]
  /** Hashes of the recent blocks read. */
  blocks: { number: bigint; hash: string }[]
  /** The block after the range (the range may have ended before the block asked for). */
  nextBlock: bigint
}

/**
 * Ranges read ahead of the one being written: two keep the node busy while this process decodes
 * one range and writes another. Each waiting range holds its rows in memory, so no further range
 * is read while those waiting hold a commit's worth of rows already (`maxLogs`): a range of one
 * dense block can hold many times what a range is sized for.
 */
const READ_AHEAD = 2

const minimum = (a: bigint, b: bigint) => (a < b ? a : b)
const maximum = (a: bigint, b: bigint) => (a > b ? a : b)
