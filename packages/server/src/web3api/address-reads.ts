import { refused } from './input.ts'

// The endpoints that answer what a wallet holds and did (its NFTs, token balances, transactions
// and transfers) read the address index, which keeps that data for the site's own addresses.
// They reach it through this one interface: a server without it answers them with an error
// that names it.

/** The Web3 API names answered from the address index. */
export const ADDRESS_ENDPOINTS = [
  'getNFTs',
  'getTokenBalances',
  'getTransactions',
  'getTokenTransfers',
  'getNFTTransfers',
  'getNFTsForContract',
  'getWalletNFTCollections',
] as const

export type AddressEndpoint = (typeof ADDRESS_ENDPOINTS)[number]

/**
 * Answers an address endpoint for a chain, with the call's parameters (chain already read), for
 * `caller` (the client's address, or cloud code): an address it asks about may start being indexed.
 */
export interface AddressReads {
  answer(
    name: AddressEndpoint,
    chainId: number,
    params: Record<string, unknown>,
    caller: string,
  ): Promise<unknown>
  /** The chains the index keeps (the console shows it); absent or null without an index. */
  indexed?(): { chainIds: number[] } | null
}

/** The stand-in until the address index is wired in. */
export const noAddressIndex: AddressReads = {
  answer: async (name) => {
    throw refused(
      `${name} reads what a wallet holds and did from the address index, which this server does not have: it is not served yet.`,
    )
  },
}
