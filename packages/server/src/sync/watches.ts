import { and, eq, isNotNull, isNull } from 'drizzle-orm'
import type { FastifyBaseLogger } from 'fastify'
import { toEventSelector, toEventSignature, type AbiEvent } from 'viem'
import type { Database } from '../db/client.ts'
import type { Cluster } from '../db/cluster/cluster.ts'
import { contractWatches, eventSyncs, syncBlocks, syncedEvents } from '../db/schema.ts'
import { checkSync, type Sync } from './definition.ts'
import type { LiveSyncs } from './live-syncs.ts'
import { NodeClient } from './node-client.ts'
import { compileFilter } from './watch-filter.ts'
import { checkTableName, readWatchParams, WatchRefusal, type WatchParams } from './watch-params.ts'

// Contract-event syncs made while the server runs, as Moralis v1's `watchContractEvent` made
// them: one event of one contract into the class `tableName`. Each is a row of
// `contract_watches` and a sync like a declared one (same rows, confirmations, reorgs, one
// writer per chain). The process that makes or removes one tells the others (a broadcast, and
// each looks at the table every half minute in case news was lost), and every process starts
// them from the table when it starts. Removing a watch stops its sync and forgets its progress;
// the rows it wrote stay in the class, as v1 kept them, still shown in the v1 shape (the row of
// the watch stays, stopped, for that); anyone with write access may change the class again.

/** A watch as the console lists it. */
export interface WatchInfo {
  tableName: string
  syncName: string
  chainId: number
  address: string
  /** The event's signature, `Transfer(address,address,uint256)`. */
  event: string
  startBlock: string
  filter: unknown
  limit: number | null
  createdAt: string
}

/** The sync name a watch of `tableName` runs under. */
export const watchSyncName = (tableName: string) => `watch-${tableName}`

/** Blocks before a row is confirmed, as v1 counted them (the sync's default elsewhere). */
const V1_CONFIRMATIONS: Record<number, number> = { 1: 12, 56: 18, 137: 100, 43114: 100, 250: 100 }

const CHANNEL = 'portico_watches_changed'
const codec = {
  encode: () => ['1'],
  decode: () => [true],
}
const RELOAD_MS = 30_000

type WatchRow = typeof contractWatches.$inferSelect

export interface WatchesOptions {
  db: Database
  cluster: Pick<Cluster, 'broadcast'>
  syncs: LiveSyncs
  upstreams: ReadonlyMap<number, readonly string[]>
  /** The configured chain v1's chain "1337" means (see `resolveChain`). */
  localChainId?: number | undefined
  log: FastifyBaseLogger
}

export class Watches {
  readonly #options: WatchesOptions
  /** The watches this process knows (running or stopped), by table. */
  readonly #rows = new Map<string, WatchRow>()
  readonly #news
  readonly #timer: NodeJS.Timeout
  #reloading: Promise<void> = Promise.resolve()
  #closed = false

  constructor(options: WatchesOptions) {
    this.#options = options
    const reload = () => {
      this.reload().catch((error: unknown) =>
        options.log.error({ err: error }, 'reading the contract watches failed'),
      )
    }
    this.#news = options.cluster.broadcast(CHANNEL, codec, reload)
    this.#news.listen(reload)
    this.#timer = setInterval(reload, RELOAD_MS)
    this.#timer.unref()
  }

  /** Resolves once this process hears other processes' news. */
  get ready(): Promise<void> {
    return this.#news.ready
  }

  /** Every running watch, oldest first. */
  list(): WatchInfo[] {
    return [...this.#rows.values()]
      .filter((row) => row.stoppedAt === null)
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime())
      .map((row) => ({
        tableName: row.tableName,
        syncName: row.syncName,
        chainId: row.chainId,
        address: row.address,
        event: toEventSignature(row.event as AbiEvent),
        startBlock: row.startBlock.toString(),
        filter: row.filter ?? null,
        limit: row.eventLimit,
        createdAt: row.createdAt.toISOString(),
      }))
  }

  /** The sync names of stopped watches (their classes keep the v1 shape; nothing runs). */
  stoppedSyncNames(): Set<string> {
    return new Set(
      [...this.#rows.values()].filter((row) => row.stoppedAt !== null).map((row) => row.syncName),
    )
  }

  /**
   * Makes a watch from v1's options and starts it. The same options again (by table, chain,
   * contract, event and filter) are a success with no change; other options for a watched table
   * are refused (v1 asked for a new table name for a changed sync).
   */
  async watch(params: WatchParams): Promise<void> {
    const options = this.#options
    const { tableName, chainId, address, event, filter, limit, historical } = readWatchParams(
      params,
      options.upstreams,
      options.localChainId,
    )
    const syncName = watchSyncName(tableName)
    const declared = options.syncs.shown.find(
      (sync) =>
        (sync.className === tableName || sync.name === syncName) &&
        ![...this.#rows.values()].some((row) => row.syncName === sync.name),
    )
    if (declared)
      throw new WatchRefusal(
        `${tableName} is filled by the site's sync "${declared.name}": choose another tableName.`,
      )

    const wanted = { chainId, address, event, filter: filter ?? null }
    const existing = await this.#read(tableName)
    if (existing && existing.stoppedAt === null) return this.#same(existing, wanted)
    const startBlock = historical
      ? await this.#contractStart(chainId, address)
      : (await this.#head(chainId)) + 1n
    // Checked now, so that a watch never exists that cannot run.
    this.#sync({
      tableName,
      syncName,
      chainId,
      address,
      event,
      startBlock,
      filter: filter ?? null,
      eventLimit: limit,
      createdAt: new Date(),
      stoppedAt: null,
    })
    const inserted = await options.db.transaction(async (tx) => {
      // A stopped watch of the table is replaced.
      await tx
        .delete(contractWatches)
        .where(and(eq(contractWatches.tableName, tableName), isNotNull(contractWatches.stoppedAt)))
      const rows = await tx
        .insert(contractWatches)
        .values({
          tableName,
          syncName,
          chainId,
          address,
          event,
          startBlock,
          filter: filter ?? null,
          eventLimit: limit,
        })
        .onConflictDoNothing()
        .returning({ tableName: contractWatches.tableName })
      // A new watch starts afresh, whatever an earlier one of the table left behind.
      if (rows.length) await forgetProgress(tx as unknown as Database, syncName)
      return rows.length > 0
    })
    if (!inserted) {
      // Another call made it meanwhile.
      const other = await this.#read(tableName)
      if (other && other.stoppedAt === null) return this.#same(other, wanted)
      throw new WatchRefusal(`${tableName} changed while it was watched: try again.`)
    }
    await this.reload()
    await this.#tell()
  }

  /** Removes the watch filling `tableName`; its rows stay. */
  async unwatch(params: { tableName?: unknown }): Promise<void> {
    const tableName = checkTableName(params.tableName)
    const [gone] = await this.#options.db
      .update(contractWatches)
      .set({ stoppedAt: new Date() })
      .where(and(eq(contractWatches.tableName, tableName), isNull(contractWatches.stoppedAt)))
      .returning()
    if (!gone) throw new WatchRefusal(`No contract event is watched into ${tableName}.`)
    await this.reload()
    await forgetProgress(this.#options.db, gone.syncName)
    await this.#tell()
  }

  /** Brings this process's syncs in line with the table (one reload at a time). */
  reload(): Promise<void> {
    const next = this.#reloading.then(() => this.#reload())
    this.#reloading = next.catch(() => {})
    return next
  }

  async close(): Promise<void> {
    this.#closed = true
    clearInterval(this.#timer)
    await this.#reloading
  }

  async #reload(): Promise<void> {
    if (this.#closed) return
    const rows = await this.#options.db.select().from(contractWatches)
    const current = new Map(rows.map((row) => [row.tableName, row]))
    const syncs = this.#options.syncs
    for (const [tableName, row] of this.#rows) {
      const now = current.get(tableName)
      if (now && stateOf(now) === stateOf(row)) continue
      this.#rows.delete(tableName)
      if (row.stoppedAt === null) {
        await syncs.remove(row.syncName)
        // Stopped here after the process that unwatched it forgot its progress: this process
        // may have written one more range meanwhile, forgotten now too.
        if (now?.stoppedAt && now.createdAt.getTime() === row.createdAt.getTime())
          await forgetProgress(this.#options.db, row.syncName)
      } else syncs.dropShape(row.syncName)
    }
    for (const row of rows) {
      if (this.#rows.has(row.tableName)) continue
      if (row.stoppedAt !== null) {
        // Only its rows' shape is needed, whatever nodes are configured now.
        syncs.keepShape(this.#sync(row, new Set([row.chainId])))
        this.#rows.set(row.tableName, row)
        continue
      }
      let sync: Sync
      try {
        sync = this.#sync(row)
      } catch (error) {
        // A watch this server cannot run now (its chain's node is no longer configured): kept
        // in the table, reported, and started once the configuration has it again.
        this.#options.log.error(
          { err: error, tableName: row.tableName },
          'contract watch not started',
        )
        continue
      }
      this.#rows.set(row.tableName, row)
      syncs.add(sync)
    }
  }

  /** The sync of a watch. */
  #sync(
    row: WatchRow,
    chains: ReadonlySet<number> = new Set(this.#options.upstreams.keys()),
  ): Sync {
    const event = row.event as AbiEvent
    const sync = checkSync(
      {
        name: row.syncName,
        chainId: row.chainId,
        address: row.address,
        abi: [event],
        className: row.tableName,
        startBlock: row.startBlock,
        confirmations: V1_CONFIRMATIONS[row.chainId],
      },
      chains,
    )
    if (row.filter !== null && row.filter !== undefined)
      sync.keep = compileFilter(row.filter, event)
    return sync
  }

  #read(tableName: string): Promise<WatchRow | undefined> {
    return this.#options.db
      .select()
      .from(contractWatches)
      .where(eq(contractWatches.tableName, tableName))
      .then((rows) => rows[0])
  }

  #same(
    existing: WatchRow,
    wanted: { chainId: number; address: string; event: AbiEvent; filter: unknown },
  ): void {
    const same =
      existing.chainId === wanted.chainId &&
      existing.address === wanted.address &&
      toEventSelector(existing.event as AbiEvent) === toEventSelector(wanted.event) &&
      JSON.stringify(indexing(existing.event as AbiEvent)) ===
        JSON.stringify(indexing(wanted.event)) &&
      JSON.stringify(existing.filter ?? null) === JSON.stringify(wanted.filter)
    if (!same)
      throw new WatchRefusal(
        `${existing.tableName} is already watched with other options: unwatchContractEvent it first, or choose another tableName.`,
      )
  }

  async #head(chainId: number): Promise<bigint> {
    const client = new NodeClient(this.#options.upstreams.get(chainId) ?? [])
    try {
      return await client.blockNumber()
    } catch (error) {
      throw new WatchRefusal(
        `the node of chain ${chainId} did not answer (${(error as Error).message.split('\n')[0]!.slice(0, 200)}): try again.`,
      )
    } finally {
      client.close()
    }
  }

  /**
   * The block the contract was created in, where its history starts: the first block at which
   * it has code (a binary search, about 30 calls). 0 when the node keeps no old state to ask.
   */
  async #contractStart(chainId: number, address: string): Promise<bigint> {
    const client = new NodeClient(this.#options.upstreams.get(chainId) ?? [])
    try {
      const hasCode = async (block: bigint) =>
        (await client.call<string>('eth_getCode', [address, `0x${block.toString(16)}`])) !== '0x'
      let high = await client.blockNumber()
      if (!(await hasCode(high))) return 0n
      let low = 0n
      while (low < high) {
        const middle = (low + high) / 2n
        if (await hasCode(middle)) high = middle
        else low = middle + 1n
      }
      return low
    } catch (error) {
      // A node without old state (not an archive node): read from the first block instead.
      this.#options.log.info(
        { err: error, chainId, address },
        'contract creation block not found; a historical watch reads from block 0',
      )
      return 0n
    } finally {
      client.close()
    }
  }

  async #tell(): Promise<void> {
    // A lost announcement only delays the others until their next look at the table.
    await this.#news
      .publish([true])
      .catch((error: unknown) =>
        this.#options.log.warn({ err: error }, 'telling other processes about a watch failed'),
      )
  }
}

/** What tells one version of a watch's row from another. */
const stateOf = (row: WatchRow) =>
  `${row.syncName}:${row.createdAt.getTime()}:${row.stoppedAt?.getTime() ?? 'running'}`

/** Drops the progress kept under a sync's name (its rows in the class stay). */
async function forgetProgress(db: Database, syncName: string): Promise<void> {
  await db.delete(eventSyncs).where(eq(eventSyncs.name, syncName))
  await db.delete(syncBlocks).where(eq(syncBlocks.name, syncName))
  await db.delete(syncedEvents).where(eq(syncedEvents.name, syncName))
}

/** Names, types and which inputs are indexed: what decides a row's fields. */
const indexing = (event: AbiEvent) =>
  event.inputs.map((input) => [input.name ?? '', input.type, input.indexed === true])
