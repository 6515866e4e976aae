import type { AddressReads as IndexReads, Page as IndexPage } from '../addresses/reads.ts'
import { AddressRefusal, type AddressIndex } from '../addresses/service.ts'
import type { AddressEndpoint, AddressReads } from './address-reads.ts'
import {
  addressList,
  addressParam,
  blockParam,
  choiceParam,
  pageFrom,
  pageParams,
  refused,
} from './input.ts'
import type { NftMetadata } from './metadata.ts'
import type { WalletCollections } from './collections.ts'

// The wallet-wide Web3 API endpoints answered from the address index: the call's address is
// asked of the index (which starts indexing one it does not know yet, bounded per caller), and
// the rows are read as the index keeps them. A page says `status: "SYNCING"` until the address's
// history is read up to the head, as v1's answers did.

type Params = Record<string, unknown>

/** The index's page in v1's shape, with a cursor `result.next()` follows. */
function v1Page<T>(page: IndexPage<T>, offset: number, limit: number, status: string) {
  return { ...pageFrom(page.result, page.total, { offset, limit }), status }
}

/** Parameters the index cannot answer yet: refused by name rather than silently ignored. */
function refuseUnread(name: string, params: Params, keys: readonly string[]): void {
  for (const key of keys) {
    const value = params[key]
    if (value !== undefined && value !== null && value !== '')
      throw refused(
        `${name}: ${key} is not served from the address index${key.endsWith('_date') ? ': use from_block / to_block' : ''}.`,
      )
  }
}

const DATES = ['from_date', 'to_date'] as const

/** The index's read behind each history endpoint. */
const HISTORY = {
  getTransactions: 'transactions',
  getTokenTransfers: 'tokenTransfers',
  getNFTTransfers: 'nftTransfers',
} as const

export class IndexAnswers implements AddressReads {
  constructor(
    private readonly index: AddressIndex,
    private readonly reads: IndexReads,
    private readonly metadata: NftMetadata,
    private readonly wallets: WalletCollections,
  ) {}

  /** Null with no chain indexed: the functions then refuse every call. */
  indexed(): { chainIds: number[] } | null {
    const chainIds = this.index.chainIds
    return chainIds.length ? { chainIds } : null
  }

  async answer(
    name: AddressEndpoint,
    chainId: number,
    params: Params,
    caller: string,
  ): Promise<unknown> {
    const address = addressParam(params)
    if (!this.index.chainIds.includes(chainId))
      throw refused(
        `${name} reads what a wallet holds and did from the address index, which does not index chain ${chainId}: list it in ADDRESS_INDEX_CHAINS (indexed: ${this.index.chainIds.join(', ') || 'none'}).`,
      )
    // The call is read whole before the index is asked, so a bad one starts nothing.
    const { offset, limit } = pageParams(params)
    const range = {
      fromBlock: blockParam(params, 'from_block'),
      toBlock: blockParam(params, 'to_block'),
    }
    // The index keeps balances as of its head; a past block's would need its transfers replayed.
    refuseUnread(name, params, name === 'getTokenBalances' ? ['to_block'] : DATES)
    const tokens =
      name === 'getNFTsForContract' ? [addressParam(params, 'token_address')] : tokenFilter(params)
    const format = choiceParam(params, 'format', ['decimal', 'hex'] as const, 'decimal')
    let status: string
    try {
      status = (await this.index.ask(chainId, address, caller)).status
    } catch (error) {
      if (error instanceof AddressRefusal) throw refused(`${name}: ${error.message}`)
      throw error
    }
    if (name === 'getTokenBalances') return this.#balances(chainId, address, tokens)
    if (name === 'getWalletNFTCollections') {
      const page = await this.wallets.collections(chainId, address, offset, limit)
      return v1Page(page, offset, limit, status)
    }
    if (name === 'getNFTs' || name === 'getNFTsForContract') {
      const page = await this.reads.nfts(chainId, address, {
        offset,
        limit,
        tokenAddresses: tokens,
      })
      return v1Page(this.#withMetadata(chainId, page, format), offset, limit, status)
    }
    const page: IndexPage<unknown> = await this.reads[HISTORY[name]](chainId, address, {
      ...range,
      offset,
      limit,
    })
    return v1Page(page, offset, limit, status)
  }

  /** v1 1.5.9's token balances: an array, decimals as text. */
  async #balances(chainId: number, address: string, only: string[] | undefined) {
    const rows = await this.reads.balances(chainId, address)
    return rows
      .filter((row) => row.balance !== '0' && (!only || only.includes(row.token_address)))
      .map((row) => ({
        token_address: row.token_address,
        name: row.name,
        symbol: row.symbol,
        logo: null,
        thumbnail: null,
        decimals: row.decimals === null ? null : String(row.decimals),
        balance: row.balance,
      }))
  }

  /** The index's NFT rows in v1's shape, with the metadata known of each token URI. */
  #withMetadata(
    chainId: number,
    page: Awaited<ReturnType<IndexReads['nfts']>>,
    format: 'decimal' | 'hex',
  ) {
    const result = page.result.map((row) => {
      const known = this.metadata.known(
        `${chainId}:${row.token_address}:${row.token_id}`,
        row.token_uri,
      )
      return {
        token_address: row.token_address,
        token_id: format === 'hex' ? `0x${BigInt(row.token_id).toString(16)}` : row.token_id,
        contract_type: row.contract_type,
        owner_of: row.owner_of,
        block_number: row.block_number,
        block_number_minted: row.block_number_minted,
        token_uri: row.token_uri,
        metadata: known.metadata,
        synced_at: known.synced_at,
        amount: row.amount,
        name: row.name,
        symbol: row.symbol,
      }
    })
    return { ...page, result }
  }
}

/** `token_addresses` when the call gives it: the contracts to keep, lowercase. */
function tokenFilter(params: Params): string[] | undefined {
  const value = params.token_addresses
  if (value === undefined || value === null || value === '') return undefined
  if (Array.isArray(value) && value.length === 0) return undefined
  return addressList(params, 'token_addresses')
}
