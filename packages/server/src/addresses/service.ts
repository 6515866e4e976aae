import type { FastifyBaseLogger } from 'fastify'
import { ADDRESS_INDEX_PAGE } from '@portico/sdk/wire'
import { and, asc, count, eq, gt, gte, isNotNull, sql } from 'drizzle-orm'
import { getAddress, isAddress } from 'viem'
import type { Database } from '../db/client.ts'
import type { Cluster, Leadership } from '../db/cluster/cluster.ts'
import type { ObjectStore } from '../objects/object-store.ts'
import { polledHeads, subscribedHeads } from '../sync/heads.ts'
import { NodeClient } from '../sync/node-client.ts'
import { AddressIndexer, EVERY, type IndexStatus } from './indexer.ts'
import { indexedAddresses } from '../db/address-schema.ts'
import type { AddressIndexConfig } from '../config/addresses.ts'

// The address index of every configured chain: which addresses it follows (users' wallets,
// found by the indexer itself; watched ones; those asked about), and one writer per chain: the
// cluster's leader of `address-index:<chainId>`, whose lock PostgreSQL releases the moment that
// process dies.

export class AddressRefusal extends Error {
  override name = 'AddressRefusal'
}

export type IndexSource = 'user' | 'watch' | 'asked'

/** An address's progress on a chain: `SYNCED` once its history is read to the head. */
export interface AddressProgress {
  chainId: number
  address: string
  status: 'SYNCING' | 'SYNCED' | 'NOT_INDEXED'
  nextBlock: string | undefined
  head: string | undefined
}

export class AddressIndex {
  readonly #indexers = new Map<number, { indexer: AddressIndexer; client: NodeClient }>()
  readonly #leaderships: Leadership[] = []

  constructor(
    private readonly options: {
      db: Database
      objects: ObjectStore
      cluster: Pick<Cluster, 'lead'>
      config: AddressIndexConfig
      upstreams: ReadonlyMap<number, readonly string[]>
      headUrls?: ReadonlyMap<number, string>
      log: FastifyBaseLogger
    },
  ) {
    for (const [chainId, settings] of options.config.chains) {
      const urls = options.upstreams.get(chainId)
      if (!urls?.length)
        throw new AddressRefusal(
          `ADDRESS_INDEX_CHAINS lists chain ${chainId}, but no node is configured for it: set RPC_URL_${chainId}.`,
        )
      const client = new NodeClient(urls)
      this.#indexers.set(chainId, {
        client,
        indexer: new AddressIndexer(
          options.db,
          options.objects,
          settings,
          options.config.publicRead,
          client,
          options.log,
        ),
      })
    }
  }

  /** The indexed chains. */
  get chainIds(): number[] {
    return [...this.#indexers.keys()]
  }

  /** Starts competing to write each chain's index. */
  start(): void {
    if (this.#leaderships.length) return
    for (const [chainId, { indexer }] of this.#indexers) {
      const leadership = this.options.cluster.lead(`address-index:${chainId}`, async (signal) => {
        const url = this.options.headUrls?.get(chainId)
        const heads = url ? subscribedHeads(url, this.options.log, chainId) : polledHeads()
        try {
          await indexer.run(signal, heads.waiter(), this.options.config.pollMs)
        } finally {
          heads.close()
        }
      })
      leadership.done.catch((error: unknown) =>
        this.options.log.error({ err: error, chainId }, 'address index stopped'),
      )
      this.#leaderships.push(leadership)
    }
  }

  async stop(): Promise<void> {
    await Promise.all(this.#leaderships.map((leadership) => leadership.stop()))
    for (const { client } of this.#indexers.values()) client.close()
  }

  /** Each chain's index as this process sees it (`writer`: this process writes it). */
  async status(): Promise<
    (IndexStatus & { writer: boolean; addresses: number; syncing: number })[]
  > {
    const out = []
    let i = 0
    for (const [chainId, { indexer }] of this.#indexers) {
      const status = indexer.status()
      const head = status.head === undefined ? undefined : BigInt(status.head)
      const [all] = await this.options.db
        .select({ n: count() })
        .from(indexedAddresses)
        .where(eq(indexedAddresses.chainId, chainId))
      const [behind] = await this.options.db
        .select({ n: count() })
        .from(indexedAddresses)
        .where(
          and(
            eq(indexedAddresses.chainId, chainId),
            head === undefined ? undefined : sql`${indexedAddresses.nextBlock} <= ${head}`,
          ),
        )
      out.push({
        ...status,
        writer: this.#leaderships[i]?.leading ?? false,
        addresses: all?.n ?? 0,
        syncing: behind?.n ?? 0,
      })
      i++
    }
    return out
  }

  #chain(chainId: number) {
    const known = this.#indexers.get(chainId)
    if (!known)
      throw new AddressRefusal(
        `chain ${chainId} is not indexed: list it in ADDRESS_INDEX_CHAINS (indexed: ${this.chainIds.join(', ') || 'none'}).`,
      )
    return known
  }

  /** Indexes `address` (checked; lowercase from here on) on `chainId`. */
  async add(
    chainId: number,
    address: string,
    source: IndexSource,
    options: { fromHead?: boolean; askedBy?: string } = {},
  ): Promise<string> {
    const { indexer, client } = this.#chain(chainId)
    const lower = checked(address)
    let nextBlock = indexer.settings.startBlock
    if (options.fromHead) nextBlock = (await client.blockNumber()) + 1n
    await this.options.db
      .insert(indexedAddresses)
      .values({ chainId, address: lower, source, nextBlock, askedBy: options.askedBy ?? null })
      .onConflictDoNothing()
    return lower
  }

  /** Moralis v1's `watch…Address`: from the start block with `syncHistorical`, else from now. */
  async watch(chainId: number, address: string, syncHistorical: boolean): Promise<void> {
    const lower = checked(address)
    this.#chain(chainId)
    // An address already indexed for a user or a caller becomes a watch: it stays after them.
    await this.options.db
      .update(indexedAddresses)
      .set({ source: 'watch' })
      .where(and(eq(indexedAddresses.chainId, chainId), eq(indexedAddresses.address, lower)))
    await this.add(chainId, lower, 'watch', { fromHead: !syncHistorical })
  }

  /** Stops following a watched address (its rows stay: other addresses' history holds them too). */
  async unwatch(chainId: number, address: string): Promise<boolean> {
    const lower = checked(address)
    this.#chain(chainId)
    const removed = await this.options.db
      .delete(indexedAddresses)
      .where(
        and(
          eq(indexedAddresses.chainId, chainId),
          eq(indexedAddresses.address, lower),
          eq(indexedAddresses.source, 'watch'),
        ),
      )
      .returning()
    return removed.length > 0
  }

  /**
   * An address a caller asked about: indexed from the start block when it is not yet (at most
   * `askedPerCaller` such addresses per caller). Its progress.
   */
  async ask(chainId: number, address: string, caller: string): Promise<AddressProgress> {
    const lower = checked(address)
    this.#chain(chainId)
    const known = await this.progress(chainId, lower)
    if (known.status !== 'NOT_INDEXED') return known
    const [asked] = await this.options.db
      .select({ n: count() })
      .from(indexedAddresses)
      .where(and(isNotNull(indexedAddresses.askedBy), eq(indexedAddresses.askedBy, caller)))
    if ((asked?.n ?? 0) >= this.options.config.askedPerCaller)
      throw new AddressRefusal(
        `${lower} is not indexed, and this caller has started ${this.options.config.askedPerCaller} addresses already (ADDRESS_INDEX_ASKED_PER_CALLER).`,
      )
    await this.add(chainId, lower, 'asked', { askedBy: caller })
    return this.progress(chainId, lower)
  }

  /** Where `address`'s history stands on `chainId`. */
  async progress(chainId: number, address: string): Promise<AddressProgress> {
    const { indexer } = this.#chain(chainId)
    const lower = checked(address)
    const head = indexer.status().head
    const rows = await this.options.db
      .select({ nextBlock: indexedAddresses.nextBlock, address: indexedAddresses.address })
      .from(indexedAddresses)
      .where(
        and(
          eq(indexedAddresses.chainId, chainId),
          sql`${indexedAddresses.address} in (${lower}, ${EVERY})`,
        ),
      )
    const row = rows.find((r) => r.address === lower) ?? rows[0]
    if (!row) return { chainId, address: lower, status: 'NOT_INDEXED', nextBlock: undefined, head }
    const synced = head !== undefined && row.nextBlock > BigInt(head)
    return {
      chainId,
      address: lower,
      status: synced ? 'SYNCED' : 'SYNCING',
      nextBlock: row.nextBlock.toString(),
      head,
    }
  }

  /** Addresses indexed from a `source`, with their next block (the console's list). */
  async list(chainId: number, fromBlock = 0n) {
    return this.options.db
      .select()
      .from(indexedAddresses)
      .where(and(eq(indexedAddresses.chainId, chainId), gte(indexedAddresses.nextBlock, fromBlock)))
      .limit(1000)
  }

  /** One page of the addresses indexed on `chainId`, by address, from after `after`. */
  async page(chainId: number, after: string | undefined) {
    return this.options.db
      .select()
      .from(indexedAddresses)
      .where(
        and(
          eq(indexedAddresses.chainId, chainId),
          after === undefined ? undefined : gt(indexedAddresses.address, after.toLowerCase()),
        ),
      )
      .orderBy(asc(indexedAddresses.address))
      .limit(ADDRESS_INDEX_PAGE)
  }
}

function checked(address: string): string {
  if (typeof address !== 'string' || !isAddress(address, { strict: false }))
    throw new AddressRefusal('"address" is an address (0x and 40 hex digits).')
  return getAddress(address).toLowerCase()
}
