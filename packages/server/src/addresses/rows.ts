import type { Document } from '../objects/wire.ts'
import { classRowId, dateField, type Kind } from './classes.ts'
import type { NativeTransaction, NftTransfer, TokenTransfer } from './read-range.ts'

// The v1 class row of each fact the index keeps (the shapes of Moralis v1's address-sync
// classes: snake_case, lowercase addresses, uint256 as decimal strings), with its id.

export interface ClassRow {
  id: string
  data: Document
}

export interface Timed {
  blockTimestamp: Date
  confirmed: boolean
}

export const tokenTransferKey = (row: { transactionHash: string; logIndex: number }) =>
  `${row.transactionHash}:${row.logIndex}`
export const nftTransferKey = (row: {
  transactionHash: string
  logIndex: number
  batchIndex: number
}) => `${row.transactionHash}:${row.logIndex}:${row.batchIndex}`

export const rowIdOf = (chainId: number, kind: Kind, key: string) => classRowId(chainId, kind, key)

/** Where a transfer or transaction happened, as v1's rows name it. */
function placeOf(row: {
  transactionIndex: number
  blockNumber: bigint
  blockHash: string
  blockTimestamp: Date
  confirmed: boolean
}): Document {
  return {
    transaction_index: row.transactionIndex,
    block_timestamp: dateField(row.blockTimestamp),
    block_number: Number(row.blockNumber),
    block_hash: row.blockHash,
    confirmed: row.confirmed,
  }
}

export function tokenTransferRow(chainId: number, row: TokenTransfer & Timed): ClassRow {
  return {
    id: classRowId(chainId, 'TokenTransfers', tokenTransferKey(row)),
    data: {
      token_address: row.tokenAddress,
      from_address: row.fromAddress,
      to_address: row.toAddress,
      value: row.value,
      transaction_hash: row.transactionHash,
      ...placeOf(row),
      log_index: row.logIndex,
    },
  }
}

export function nftTransferRow(chainId: number, row: NftTransfer & Timed): ClassRow {
  return {
    id: classRowId(chainId, 'NFTTransfers', nftTransferKey(row)),
    data: {
      token_address: row.tokenAddress,
      token_id: row.tokenId,
      contract_type: row.contractType,
      amount: row.amount,
      transaction_type: row.transactionType,
      operator: row.operator,
      from_address: row.fromAddress,
      to_address: row.toAddress,
      transaction_hash: row.transactionHash,
      ...placeOf(row),
      log_index: row.logIndex,
    },
  }
}

export function transactionRow(chainId: number, row: NativeTransaction & Timed): ClassRow {
  return {
    id: classRowId(chainId, 'Transactions', row.hash),
    data: {
      hash: row.hash,
      nonce: Number(row.nonce),
      transaction_index: row.transactionIndex,
      from_address: row.fromAddress,
      to_address: row.toAddress,
      value: row.value,
      gas: Number(row.gas),
      gas_price: Number(row.gasPrice),
      input: row.input,
      receipt_cumulative_gas_used: Number(row.receiptCumulativeGasUsed),
      receipt_gas_used: Number(row.receiptGasUsed),
      receipt_contract_address: row.receiptContractAddress,
      receipt_status: row.receiptStatus,
      ...placeOf(row),
    },
  }
}

export interface TokenMeta {
  name: string | null
  symbol: string | null
  decimals: number | null
}

export function balanceRow(
  chainId: number,
  row: { address: string; tokenAddress: string; balance: string; blockNumber: bigint },
  meta: TokenMeta | undefined,
): ClassRow {
  return {
    id: classRowId(chainId, 'TokenBalance', `${row.address}:${row.tokenAddress}`),
    data: {
      address: row.address,
      token_address: row.tokenAddress,
      name: meta?.name ?? null,
      symbol: meta?.symbol ?? null,
      decimals:
        meta?.decimals === null || meta?.decimals === undefined ? null : String(meta.decimals),
      balance: row.balance,
      contract_type: 'ERC20',
      block_number: Number(row.blockNumber),
    },
  }
}

export function ownerRow(
  chainId: number,
  row: {
    address: string
    tokenAddress: string
    tokenId: string
    contractType: string
    amount: string
    blockNumber: bigint
  },
  meta: TokenMeta | undefined,
  uri: string | null | undefined,
): ClassRow {
  return {
    id: classRowId(chainId, 'NFTOwners', `${row.address}:${row.tokenAddress}:${row.tokenId}`),
    data: {
      owner_of: row.address,
      token_address: row.tokenAddress,
      token_id: row.tokenId,
      token_uri: uri ?? null,
      contract_type: row.contractType,
      name: meta?.name ?? null,
      symbol: meta?.symbol ?? null,
      amount: row.amount,
      block_number: Number(row.blockNumber),
    },
  }
}
