import type { FastifyBaseLogger } from 'fastify'
import { and, eq, gt, inArray, min, sql } from 'drizzle-orm'
import { isEmbedded, type Database } from '../db/client.ts'
import { userAddresses } from '../db/schema.ts'
import type { ObjectStore } from '../objects/object-store.ts'
import { polledHeads, sleep, type HeadWaiter } from '../sync/heads.ts'
import type { NodeClient } from '../sync/node-client.ts'
import { AdaptiveRange, EMBEDDED_TARGET_LOGS, TARGET_LOGS } from '../sync/range.ts'
import { findReorg } from '../sync/reorg.ts'
import { KEPT_BLOCKS } from '../sync/store.ts'
import { commitRange, dropAbove, type IndexTarget } from './commit.ts'
import { FinalHeaders, readRange, readTokenMetadata, readTokenUri } from './read-range.ts'
import type { TokenMeta } from './rows.ts'
import { indexedAddresses, indexedTokens, indexedTokenUris } from '../db/address-schema.ts'
import type { IndexedChainSettings } from '../config/addresses.ts'
import { errorLine, retryWait } from '../sync/retry.ts'

// The address index of one chain, stepped like a contract sync (and on its parts: the adaptive
// `eth_getLogs` range, the streamed log reader, the recorded block hashes that find a reorg, the
// chain's new heads). Each indexed address has its own next block; a step reads the addresses
// furthest behind (a group sharing one next block) up to where the next group begins, so an
// address added late catches up from the start block and then joins the others, and a caught-up
// set reads the head once for all. Every step first checks that the newest recorded block is
// still on the chain; after a reorg every row above the last block that is goes, and every
// address reads again from there.

/** Addresses read together in one `eth_getLogs` topic filter (nodes bound a filter's size). */
const GROUP = 100
/** Blocks read per step while native transactions are found by scanning blocks. */
const SCAN_BLOCKS = 200n

/** The address row that carries the progress in every address mode. */
export const EVERY = '*'

export interface IndexStatus {
  chainId: number
  mode: 'starting' | 'backfill' | 'following'
  head: string | undefined
  lastError: string | undefined
  /** Transfers and transactions written by this process. */
  rows: number
}

export class AddressIndexer {
  readonly target: IndexTarget
  private readonly range: AdaptiveRange
  private readonly finalHeaders = new FinalHeaders()
  private head: bigint | undefined
  private committedHead: bigint | undefined
  private confirmedThrough: bigint | undefined
  private reachedHead = false
  private started = false
  private lastError: string | undefined
  private rows = 0
  /** When the wallets of users were last looked for (all of them, and those linked lately). */
  private lastUsers = 0
  private lastAllUsers = 0
  /** Whether the node has the `ots_` methods (asked once, for `auto`). */
  private otsAnswers: boolean | undefined

  constructor(
    private readonly db: Database,
    private readonly objects: ObjectStore,
    readonly settings: IndexedChainSettings,
    publicRead: boolean,
    private readonly client: NodeClient,
    private readonly log: FastifyBaseLogger,
  ) {
    this.target = {
      chainId: settings.chainId,
      name: `address-index-${settings.chainId}`,
      confirmations: settings.confirmations,
      everyAddress: settings.everyAddress,
      publicRead,
    }
    this.range = new AdaptiveRange(10_000, isEmbedded(db) ? EMBEDDED_TARGET_LOGS : TARGET_LOGS)
  }

  status(): IndexStatus {
    return {
      chainId: this.settings.chainId,
      mode: !this.started ? 'starting' : this.reachedHead ? 'following' : 'backfill',
      head: this.head?.toString(),
      lastError: this.lastError,
      rows: this.rows,
    }
  }

  async run(signal: AbortSignal, heads: HeadWaiter = polledHeads().waiter(), pollMs = 2_000) {
    let failures = 0
    while (!signal.aborted) {
      let wait = 0
      let caughtUp = false
      try {
        const more = await this.step()
        this.started = true
        if (!more) this.reachedHead = true
        failures = 0
        this.lastError = undefined
        caughtUp = !more
      } catch (error) {
        failures++
        this.lastError = errorLine(error)
        this.log.warn({ chainId: this.settings.chainId, err: error }, 'address index step failed')
        wait = retryWait(failures)
      }
      if (wait) await sleep(wait, signal)
      else if (caughtUp) await heads.next(pollMs, signal)
    }
  }

  /** The wallets of every user, indexed from the start block (cheap: only new ones are added). */
  private async addUserWallets(): Promise<void> {
    const { chainId, startBlock, everyAddress } = this.settings
    if (everyAddress) {
      await this.db
        .insert(indexedAddresses)
        .values({ chainId, address: EVERY, source: 'every', nextBlock: startBlock })
        .onConflictDoNothing()
      return
    }
    // Every step the wallets linked lately; now and then all of them (an import keeps the
    // dates of the export, which may be older).
    const all = Date.now() - this.lastAllUsers > 30_000
    const since = new Date(all ? 0 : this.lastUsers - 60_000)
    const now = Date.now()
    await this.db.execute(sql`
      insert into ${indexedAddresses} (chain_id, address, source, next_block)
      select ${chainId}::integer, lower(u.address), 'user', ${startBlock}::bigint
      from ${userAddresses} u
      where u.linked_at >= ${since.toISOString()}::timestamptz
      on conflict do nothing`)
    this.lastUsers = now
    if (all) this.lastAllUsers = now
  }

  /** Reads and commits one range of the addresses furthest behind; true when more is waiting. */
  async step(): Promise<boolean> {
    const { chainId } = this.settings
    const head = await this.client.blockNumber()
    this.head = head
    await this.addUserWallets()
    const dropAfter = await findReorg(this.db, this.client, this.target.name)
    if (dropAfter !== undefined) {
      this.log.warn({ chainId, dropAfter: dropAfter.toString() }, 'chain reorganised: re-indexing')
      await dropAbove(this.objects, this.target, dropAfter)
      this.finalHeaders.clear()
      this.confirmedThrough = undefined
    }
    const [lowest] = await this.db
      .select({ from: min(indexedAddresses.nextBlock) })
      .from(indexedAddresses)
      .where(eq(indexedAddresses.chainId, chainId))
    const from = lowest?.from ?? undefined
    const confirmThrough = head - BigInt(this.settings.confirmations) + 1n
    const keepFrom = head - KEPT_BLOCKS - BigInt(this.settings.confirmations)
    if (from === undefined || from === null || from > head) {
      if (head !== this.committedHead || dropAfter !== undefined)
        await this.commitHead(head, confirmThrough, keepFrom)
      return false
    }
    const groupRows = await this.db
      .select({ address: indexedAddresses.address })
      .from(indexedAddresses)
      .where(and(eq(indexedAddresses.chainId, chainId), eq(indexedAddresses.nextBlock, from)))
      .orderBy(indexedAddresses.address)
      .limit(GROUP)
    const group = groupRows.map((row) => row.address)
    const [above] = await this.db
      .select({ next: min(indexedAddresses.nextBlock) })
      .from(indexedAddresses)
      .where(and(eq(indexedAddresses.chainId, chainId), gt(indexedAddresses.nextBlock, from)))
    let to = from + BigInt(this.range.size) - 1n
    if (to > head) to = head
    if (above?.next !== undefined && above.next !== null && above.next - 1n < to)
      to = above.next - 1n
    const every = group.includes(EVERY)
    const native = every && this.settings.native !== 'off' ? 'blocks' : await this.nativeMode()
    if (native === 'blocks' && to > from + SCAN_BLOCKS - 1n) to = from + SCAN_BLOCKS - 1n
    let content
    try {
      content = await readRange(this.client, {
        addresses: every ? undefined : group,
        from,
        to,
        keepFrom,
        native,
        finalHeaders: this.finalHeaders,
      })
    } catch (error) {
      if (this.range.failed()) return true
      throw error
    }
    this.range.read(
      Number(to - from + 1n),
      content.tokens.length + content.nfts.length + content.transactions.length,
    )
    const time = (block: bigint) => new Date(Number(content.headers.get(block)!.timestamp) * 1000)
    const metadata = await this.newMetadata([
      ...content.tokens.map((row) => row.tokenAddress),
      ...content.nfts.map((row) => row.tokenAddress),
    ])
    const uris = await this.newUris(content.nfts)
    const blocks = [...content.headers.values()]
      .filter((block) => block.number >= keepFrom)
      .map((block) => ({ number: block.number, hash: block.hash }))
    this.rows += await commitRange(this.objects, this.target, {
      group,
      tokens: content.tokens.map((row) => ({ ...row, blockTimestamp: time(row.blockNumber) })),
      nfts: content.nfts.map((row) => ({ ...row, blockTimestamp: time(row.blockNumber) })),
      transactions: content.transactions.map((row) => ({
        ...row,
        blockTimestamp: time(row.blockNumber),
      })),
      blocks,
      metadata,
      uris,
      confirmThrough,
      confirmFrom: this.confirmedThrough,
      keepFrom,
      nextBlock: to + 1n,
      head,
    })
    this.committedHead = head
    this.confirmedThrough = confirmThrough
    return true
  }

  /** No block to read: the new head's confirmations alone. */
  private async commitHead(head: bigint, confirmThrough: bigint, keepFrom: bigint) {
    await commitRange(this.objects, this.target, {
      group: [],
      tokens: [],
      nfts: [],
      transactions: [],
      blocks: [],
      metadata: new Map(),
      uris: new Map(),
      confirmThrough,
      confirmFrom: this.confirmedThrough,
      keepFrom,
      nextBlock: head + 1n,
      head,
    })
    this.committedHead = head
    this.confirmedThrough = confirmThrough
  }

  /** `auto` is `ots` where the node answers `ots_getApiLevel` (Erigon, Otterscan, anvil). */
  private async nativeMode(): Promise<'ots' | 'blocks' | 'off'> {
    if (this.settings.native !== 'auto') return this.settings.native
    this.otsAnswers ??= await this.client
      .call('ots_getApiLevel')
      .then(() => true)
      .catch(() => false)
    return this.otsAnswers ? 'ots' : 'blocks'
  }

  /** Name, symbol and decimals of the tokens not read yet (read once, then kept). */
  private async newMetadata(tokens: string[]): Promise<Map<string, TokenMeta>> {
    const wanted = [...new Set(tokens)]
    const read = new Map<string, TokenMeta>()
    if (!wanted.length) return read
    const known = await this.db
      .select({ address: indexedTokens.address })
      .from(indexedTokens)
      .where(
        and(
          eq(indexedTokens.chainId, this.settings.chainId),
          inArray(indexedTokens.address, wanted),
        ),
      )
    const have = new Set(known.map((row) => row.address))
    for (const token of wanted)
      if (!have.has(token)) read.set(token, await readTokenMetadata(this.client, token))
    return read
  }

  /** Token URIs of the NFTs not read yet. */
  private async newUris(
    nfts: readonly { tokenAddress: string; tokenId: string; contractType: 'ERC721' | 'ERC1155' }[],
  ): Promise<Map<string, string | null>> {
    const read = new Map<string, string | null>()
    const wanted = new Map(nfts.map((nft) => [`${nft.tokenAddress}:${nft.tokenId}`, nft]))
    if (!wanted.size) return read
    const tokens = [...new Set(nfts.map((nft) => nft.tokenAddress))]
    const known = await this.db
      .select({ token: indexedTokenUris.tokenAddress, id: indexedTokenUris.tokenId })
      .from(indexedTokenUris)
      .where(
        and(
          eq(indexedTokenUris.chainId, this.settings.chainId),
          inArray(indexedTokenUris.tokenAddress, tokens),
        ),
      )
    const have = new Set(known.map((row) => `${row.token}:${row.id}`))
    for (const [key, nft] of wanted)
      if (!have.has(key))
        read.set(
          key,
          await readTokenUri(this.client, nft.tokenAddress, nft.tokenId, nft.contractType),
        )
    return read
  }
}
