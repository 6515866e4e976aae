import { and, asc, countDistinct, eq } from 'drizzle-orm'
import type { Database } from '../db/client.ts'
import { indexedTokens, nftHoldings } from '../db/address-schema.ts'
import type { Page } from '../addresses/reads.ts'

// getWalletNFTCollections: the NFT contracts a wallet holds at least one token of, read from the
// address index's holdings (one row per contract, with the name and symbol the index read once).

export interface WalletCollection {
  token_address: string
  contract_type: string
  name: string | null
  symbol: string | null
}

export class WalletCollections {
  constructor(private readonly db: Database) {}

  async collections(
    chainId: number,
    address: string,
    offset: number,
    limit: number,
  ): Promise<Page<WalletCollection>> {
    const h = nftHoldings
    const where = and(eq(h.chainId, chainId), eq(h.address, address.toLowerCase()))
    const [total] = await this.db
      .select({ n: countDistinct(h.tokenAddress) })
      .from(h)
      .where(where)
    const rows = await this.db
      .select({
        token_address: h.tokenAddress,
        contract_type: h.contractType,
        name: indexedTokens.name,
        symbol: indexedTokens.symbol,
      })
      .from(h)
      .leftJoin(
        indexedTokens,
        and(eq(indexedTokens.chainId, h.chainId), eq(indexedTokens.address, h.tokenAddress)),
      )
      .where(where)
      .groupBy(h.tokenAddress, h.contractType, indexedTokens.name, indexedTokens.symbol)
      .orderBy(asc(h.tokenAddress))
      .limit(limit)
      .offset(offset)
    return {
      total: Number(total?.n ?? 0),
      page: Math.floor(offset / limit),
      page_size: limit,
      result: rows,
    }
  }
}
