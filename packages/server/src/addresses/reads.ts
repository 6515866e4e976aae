import { and, asc, count, desc, eq, gte, inArray, lte, or, type SQL } from 'drizzle-orm'
import type { Database } from '../db/client.ts'
import {
  indexedTokens,
  indexedTokenUris,
  nativeTransactions,
  nftHoldings,
  nftTransfers,
  tokenBalances,
  tokenTransfers,
} from '../db/address-schema.ts'

// What the index answers about one address: its balances, the NFTs it holds, and its transfers
// and transactions paged by block (newest first). uint256 values are decimal strings, addresses
// lowercase. The Web3API endpoints and the server module read the index through these alone.

export interface Page<T> {
  total: number
  page: number
  page_size: number
  result: T[]
}

export interface PageOptions {
  fromBlock?: bigint | undefined
  toBlock?: bigint | undefined
  /** At most 100 (v1's maximum), 100 by default. */
  limit?: number | undefined
  /** Zero-based page. */
  page?: number | undefined
  /** Rows to skip, in place of `page` (a cursor's position need not fall on a page's start). */
  offset?: number | undefined
  /** Only these token contracts (lowercase); all when absent. */
  tokenAddresses?: readonly string[] | undefined
}

const pageOf = (options: PageOptions) => {
  const size = Math.max(1, Math.min(100, Math.floor(options.limit ?? 100)))
  if (options.offset !== undefined) {
    const offset = Math.max(0, Math.floor(options.offset))
    return { size, page: Math.floor(offset / size), offset }
  }
  const page = Math.max(0, Math.floor(options.page ?? 0))
  return { size, page, offset: size * page }
}

/** Where a transfer or transaction happened, as the answers name it. */
function placeOf(row: {
  transactionIndex: number
  blockTimestamp: Date
  blockNumber: bigint
  blockHash: string
  confirmed: boolean
}) {
  return {
    transaction_index: row.transactionIndex,
    block_timestamp: row.blockTimestamp.toISOString(),
    block_number: row.blockNumber.toString(),
    block_hash: row.blockHash,
    confirmed: row.confirmed,
  }
}

export class AddressReads {
  constructor(private readonly db: Database) {}

  /** The ERC-20 tokens `address` holds, with each token's name, symbol and decimals. */
  async balances(chainId: number, address: string) {
    const rows = await this.db
      .select({
        token_address: tokenBalances.tokenAddress,
        balance: tokenBalances.balance,
        block_number: tokenBalances.blockNumber,
        name: indexedTokens.name,
        symbol: indexedTokens.symbol,
        decimals: indexedTokens.decimals,
      })
      .from(tokenBalances)
      .leftJoin(
        indexedTokens,
        and(
          eq(indexedTokens.chainId, tokenBalances.chainId),
          eq(indexedTokens.address, tokenBalances.tokenAddress),
        ),
      )
      .where(
        and(eq(tokenBalances.chainId, chainId), eq(tokenBalances.address, address.toLowerCase())),
      )
      .orderBy(asc(tokenBalances.tokenAddress))
    return rows.map((row) => ({ ...row, block_number: row.block_number.toString() }))
  }

  /** The NFTs `address` holds, with amounts (1 for ERC-721) and token URIs. */
  async nfts(chainId: number, address: string, options: PageOptions = {}) {
    const { size, page, offset } = pageOf(options)
    const where = and(
      eq(nftHoldings.chainId, chainId),
      eq(nftHoldings.address, address.toLowerCase()),
      options.tokenAddresses
        ? inArray(nftHoldings.tokenAddress, [...options.tokenAddresses])
        : undefined,
    )
    const [total] = await this.db.select({ n: count() }).from(nftHoldings).where(where)
    const rows = await this.db
      .select({
        token_address: nftHoldings.tokenAddress,
        token_id: nftHoldings.tokenId,
        contract_type: nftHoldings.contractType,
        owner_of: nftHoldings.address,
        amount: nftHoldings.amount,
        block_number: nftHoldings.blockNumber,
        block_number_minted: nftHoldings.blockNumberMinted,
        token_uri: indexedTokenUris.uri,
        name: indexedTokens.name,
        symbol: indexedTokens.symbol,
      })
      .from(nftHoldings)
      .leftJoin(
        indexedTokens,
        and(
          eq(indexedTokens.chainId, nftHoldings.chainId),
          eq(indexedTokens.address, nftHoldings.tokenAddress),
        ),
      )
      .leftJoin(
        indexedTokenUris,
        and(
          eq(indexedTokenUris.chainId, nftHoldings.chainId),
          eq(indexedTokenUris.tokenAddress, nftHoldings.tokenAddress),
          eq(indexedTokenUris.tokenId, nftHoldings.tokenId),
        ),
      )
      .where(where)
      .orderBy(asc(nftHoldings.tokenAddress), asc(nftHoldings.tokenId))
      .limit(size)
      .offset(offset)
    return {
      total: total?.n ?? 0,
      page,
      page_size: size,
      result: rows.map((row) => ({
        ...row,
        block_number: row.block_number.toString(),
        block_number_minted: row.block_number_minted.toString(),
      })),
    }
  }

  /** ERC-20 transfers from or to `address`, newest first. */
  async tokenTransfers(chainId: number, address: string, options: PageOptions = {}) {
    const t = tokenTransfers
    const rows = await this.#paged(t, chainId, address, options, [
      desc(t.blockNumber),
      desc(t.logIndex),
    ])
    return {
      ...rows,
      result: rows.result.map((row) => ({
        transaction_hash: row.transactionHash,
        address: row.tokenAddress,
        token_address: row.tokenAddress,
        from_address: row.fromAddress,
        to_address: row.toAddress,
        value: row.value,
        ...placeOf(row),
        log_index: row.logIndex,
      })),
    }
  }

  /** ERC-721 and ERC-1155 transfers from or to `address`, newest first. */
  async nftTransfers(chainId: number, address: string, options: PageOptions = {}) {
    const t = nftTransfers
    const rows = await this.#paged(t, chainId, address, options, [
      desc(t.blockNumber),
      desc(t.logIndex),
      asc(t.batchIndex),
    ])
    return {
      ...rows,
      result: rows.result.map((row) => ({
        transaction_hash: row.transactionHash,
        token_address: row.tokenAddress,
        token_id: row.tokenId,
        contract_type: row.contractType,
        transaction_type: row.transactionType,
        amount: row.amount,
        operator: row.operator,
        from_address: row.fromAddress,
        to_address: row.toAddress,
        ...placeOf(row),
        log_index: row.logIndex,
      })),
    }
  }

  /** Native transactions sent or received by `address`, newest first, with receipt fields. */
  async transactions(chainId: number, address: string, options: PageOptions = {}) {
    const t = nativeTransactions
    const rows = await this.#paged(t, chainId, address, options, [
      desc(t.blockNumber),
      desc(t.transactionIndex),
    ])
    return {
      ...rows,
      result: rows.result.map((row) => ({
        hash: row.hash,
        nonce: row.nonce.toString(),
        ...placeOf(row),
        transaction_index: String(row.transactionIndex),
        from_address: row.fromAddress,
        to_address: row.toAddress,
        value: row.value,
        gas: row.gas,
        gas_price: row.gasPrice,
        input: row.input,
        receipt_cumulative_gas_used: row.receiptCumulativeGasUsed,
        receipt_gas_used: row.receiptGasUsed,
        receipt_contract_address: row.receiptContractAddress,
        receipt_root: null,
        receipt_status: String(row.receiptStatus),
      })),
    }
  }

  async #paged<T extends typeof tokenTransfers | typeof nftTransfers | typeof nativeTransactions>(
    table: T,
    chainId: number,
    address: string,
    options: PageOptions,
    order: SQL[],
  ) {
    const { size, page, offset } = pageOf(options)
    const lower = address.toLowerCase()
    const where = and(
      eq(table.chainId, chainId),
      or(eq(table.fromAddress, lower), eq(table.toAddress, lower)),
      options.fromBlock === undefined ? undefined : gte(table.blockNumber, options.fromBlock),
      options.toBlock === undefined ? undefined : lte(table.blockNumber, options.toBlock),
    )
    const [total] = (await this.db
      .select({ n: count() })
      .from(table as never)
      .where(where)) as {
      n: number
    }[]
    const result = (await this.db
      .select()
      .from(table as never)
      .where(where)
      .orderBy(...order)
      .limit(size)
      .offset(offset)) as T['$inferSelect'][]
    return { total: total?.n ?? 0, page, page_size: size, result }
  }
}
