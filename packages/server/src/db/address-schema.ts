import {
  bigint,
  boolean,
  index,
  integer,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
} from 'drizzle-orm/pg-core'

// The address index's own tables. Addresses are lowercase hex (as v1's rows and answers hold
// them); amounts are numeric(78,0): every uint256, exact, compared and summed by the database.

const uint256 = (name: string) => numeric(name, { precision: 78, scale: 0 })

/** The addresses indexed per chain, each with the next block its history is read from. */
export const indexedAddresses = pgTable(
  'indexed_addresses',
  {
    chainId: integer('chain_id').notNull(),
    address: text('address').notNull(),
    /** Why it is indexed: `user` (a wallet of a user), `watch`, or `asked`. */
    source: text('source').notNull(),
    /** Who asked for it (`asked`): bounds the addresses one caller starts. */
    askedBy: text('asked_by'),
    nextBlock: bigint('next_block', { mode: 'bigint' }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.chainId, t.address] }),
    index('indexed_addresses_next_idx').on(t.chainId, t.nextBlock),
    index('indexed_addresses_asked_idx').on(t.askedBy),
  ],
)

/** ERC-20 transfers from or to an indexed address. */
export const tokenTransfers = pgTable(
  'index_token_transfers',
  {
    chainId: integer('chain_id').notNull(),
    transactionHash: text('transaction_hash').notNull(),
    logIndex: integer('log_index').notNull(),
    transactionIndex: integer('transaction_index').notNull(),
    tokenAddress: text('token_address').notNull(),
    fromAddress: text('from_address').notNull(),
    toAddress: text('to_address').notNull(),
    value: uint256('value').notNull(),
    blockNumber: bigint('block_number', { mode: 'bigint' }).notNull(),
    blockHash: text('block_hash').notNull(),
    blockTimestamp: timestamp('block_timestamp', { withTimezone: true }).notNull(),
    confirmed: boolean('confirmed').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.chainId, t.transactionHash, t.logIndex] }),
    index('index_token_transfers_from_idx').on(t.chainId, t.fromAddress, t.blockNumber),
    index('index_token_transfers_to_idx').on(t.chainId, t.toAddress, t.blockNumber),
    index('index_token_transfers_block_idx').on(t.chainId, t.blockNumber),
  ],
)

/**
 * ERC-721 and ERC-1155 transfers from or to an indexed address; a `TransferBatch` is one row per
 * token (`batchIndex`).
 */
export const nftTransfers = pgTable(
  'index_nft_transfers',
  {
    chainId: integer('chain_id').notNull(),
    transactionHash: text('transaction_hash').notNull(),
    logIndex: integer('log_index').notNull(),
    batchIndex: integer('batch_index').notNull(),
    transactionIndex: integer('transaction_index').notNull(),
    tokenAddress: text('token_address').notNull(),
    tokenId: uint256('token_id').notNull(),
    /** `ERC721` or `ERC1155`. */
    contractType: text('contract_type').notNull(),
    /** `Single` (ERC-721 `Transfer`, ERC-1155 `TransferSingle`) or `Batch`. */
    transactionType: text('transaction_type').notNull(),
    amount: uint256('amount').notNull(),
    operator: text('operator'),
    fromAddress: text('from_address').notNull(),
    toAddress: text('to_address').notNull(),
    blockNumber: bigint('block_number', { mode: 'bigint' }).notNull(),
    blockHash: text('block_hash').notNull(),
    blockTimestamp: timestamp('block_timestamp', { withTimezone: true }).notNull(),
    confirmed: boolean('confirmed').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.chainId, t.transactionHash, t.logIndex, t.batchIndex] }),
    index('index_nft_transfers_from_idx').on(t.chainId, t.fromAddress, t.blockNumber),
    index('index_nft_transfers_to_idx').on(t.chainId, t.toAddress, t.blockNumber),
    index('index_nft_transfers_block_idx').on(t.chainId, t.blockNumber),
  ],
)

/** Native transactions sent or received by an indexed address, with their receipts. */
export const nativeTransactions = pgTable(
  'index_transactions',
  {
    chainId: integer('chain_id').notNull(),
    hash: text('hash').notNull(),
    nonce: bigint('nonce', { mode: 'bigint' }).notNull(),
    transactionIndex: integer('transaction_index').notNull(),
    fromAddress: text('from_address').notNull(),
    /** Null for a contract creation. */
    toAddress: text('to_address'),
    value: uint256('value').notNull(),
    gas: uint256('gas').notNull(),
    gasPrice: uint256('gas_price').notNull(),
    input: text('input').notNull(),
    receiptCumulativeGasUsed: uint256('receipt_cumulative_gas_used').notNull(),
    receiptGasUsed: uint256('receipt_gas_used').notNull(),
    receiptContractAddress: text('receipt_contract_address'),
    receiptStatus: integer('receipt_status').notNull(),
    blockNumber: bigint('block_number', { mode: 'bigint' }).notNull(),
    blockHash: text('block_hash').notNull(),
    blockTimestamp: timestamp('block_timestamp', { withTimezone: true }).notNull(),
    confirmed: boolean('confirmed').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.chainId, t.hash] }),
    index('index_transactions_from_idx').on(t.chainId, t.fromAddress, t.blockNumber),
    index('index_transactions_to_idx').on(t.chainId, t.toAddress, t.blockNumber),
    index('index_transactions_block_idx').on(t.chainId, t.blockNumber),
  ],
)

/** Each indexed address's balance of each ERC-20 token (rows of zero are removed). */
export const tokenBalances = pgTable(
  'index_token_balances',
  {
    chainId: integer('chain_id').notNull(),
    address: text('address').notNull(),
    tokenAddress: text('token_address').notNull(),
    balance: uint256('balance').notNull(),
    /** The block of the last transfer that changed it. */
    blockNumber: bigint('block_number', { mode: 'bigint' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.chainId, t.address, t.tokenAddress] })],
)

/** The NFTs each indexed address holds, with the amount (1 for ERC-721). */
export const nftHoldings = pgTable(
  'index_nft_holdings',
  {
    chainId: integer('chain_id').notNull(),
    address: text('address').notNull(),
    tokenAddress: text('token_address').notNull(),
    tokenId: uint256('token_id').notNull(),
    contractType: text('contract_type').notNull(),
    amount: uint256('amount').notNull(),
    blockNumber: bigint('block_number', { mode: 'bigint' }).notNull(),
    /** The block of the first transfer that brought it to this address. */
    blockNumberMinted: bigint('block_number_minted', { mode: 'bigint' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.chainId, t.address, t.tokenAddress, t.tokenId] })],
)

/** A token contract's name, symbol and decimals, read from the chain once. */
export const indexedTokens = pgTable(
  'index_tokens',
  {
    chainId: integer('chain_id').notNull(),
    address: text('address').notNull(),
    name: text('name'),
    symbol: text('symbol'),
    /** Null for NFT contracts and tokens that do not tell. */
    decimals: integer('decimals'),
  },
  (t) => [primaryKey({ columns: [t.chainId, t.address] })],
)

/** An NFT's token URI, read from the chain once (null when the contract does not answer). */
export const indexedTokenUris = pgTable(
  'index_token_uris',
  {
    chainId: integer('chain_id').notNull(),
    tokenAddress: text('token_address').notNull(),
    tokenId: uint256('token_id').notNull(),
    uri: text('uri'),
  },
  (t) => [primaryKey({ columns: [t.chainId, t.tokenAddress, t.tokenId] })],
)
