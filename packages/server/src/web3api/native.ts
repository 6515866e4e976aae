import {
  formatTransactionReceipt,
  type Block,
  type Hash,
  type Log,
  type PublicClient,
  type RpcTransactionReceipt,
  type Transaction,
  type TransactionReceipt,
} from 'viem'
import { addressParam, blockParam, dateParam, refused } from './input.ts'
import { isoTime, type Endpoint, type EndpointContext } from './context.ts'

// Blocks, transactions and native balances, from the node: v1's `native` group (and
// `account.getNativeBalance`).

/** A block parameter as viem takes it: a number, or the latest block. */
export const atBlock = (block: bigint | undefined) =>
  block === undefined ? { blockTag: 'latest' as const } : { blockNumber: block }

export const getNativeBalance: Endpoint = async ({ client, params }) => {
  const address = addressParam(params)
  const balance = await client.getBalance({ address, ...atBlock(blockParam(params, 'to_block')) })
  return { balance: balance.toString() }
}

/** A log in v1's shape. */
export function logRow(log: Log, timestamp: bigint) {
  const [topic0 = null, topic1 = null, topic2 = null, topic3 = null] = log.topics
  return {
    log_index: String(log.logIndex),
    transaction_hash: log.transactionHash,
    transaction_index: String(log.transactionIndex),
    address: log.address.toLowerCase(),
    data: log.data,
    topic0,
    topic1,
    topic2,
    topic3,
    block_timestamp: isoTime(timestamp),
    block_number: String(log.blockNumber),
    block_hash: log.blockHash,
  }
}

/** A transaction and its receipt in v1's shape. */
export function transactionRow(
  tx: Transaction,
  receipt: TransactionReceipt | undefined,
  timestamp: bigint,
) {
  return {
    hash: tx.hash,
    nonce: String(tx.nonce),
    transaction_index: String(tx.transactionIndex),
    from_address: tx.from.toLowerCase(),
    to_address: tx.to?.toLowerCase() ?? null,
    value: tx.value.toString(),
    gas: tx.gas.toString(),
    gas_price: (tx.gasPrice ?? receipt?.effectiveGasPrice ?? 0n).toString(),
    input: tx.input,
    receipt_cumulative_gas_used: receipt?.cumulativeGasUsed.toString() ?? null,
    receipt_gas_used: receipt?.gasUsed.toString() ?? null,
    receipt_contract_address: receipt?.contractAddress?.toLowerCase() ?? null,
    receipt_root: receipt?.root ?? null,
    receipt_status: receipt ? (receipt.status === 'success' ? '1' : '0') : null,
    block_timestamp: isoTime(timestamp),
    block_number: String(tx.blockNumber),
    block_hash: tx.blockHash,
    logs: (receipt?.logs ?? []).map((log) => logRow(log, timestamp)),
  }
}

const HASH = /^0x[0-9a-fA-F]{64}$/

export const getTransaction: Endpoint = async ({ client, params }) => {
  const hash = params.transaction_hash
  if (typeof hash !== 'string' || !HASH.test(hash))
    throw refused('transaction_hash is required: 0x and 64 hex digits.')
  const tx = await client.getTransaction({ hash: hash as Hash }).catch(() => undefined)
  if (!tx || tx.blockNumber === null) throw refused(`No mined transaction ${hash} on this chain.`)
  const [receipt, block] = await Promise.all([
    client.getTransactionReceipt({ hash: hash as Hash }),
    client.getBlock({ blockHash: tx.blockHash! }),
  ])
  return transactionRow(tx, receipt, block.timestamp)
}

export const getBlock: Endpoint = async ({ client, params }) => {
  const wanted = params.block_number_or_hash
  let block: Block<bigint, true>
  if (typeof wanted === 'string' && HASH.test(wanted))
    block = await client.getBlock({ blockHash: wanted as Hash, includeTransactions: true })
  else {
    const number = blockParam(params, 'block_number_or_hash')
    if (number === undefined)
      throw refused('block_number_or_hash is required: a block number or a block hash.')
    const latest = await client.getBlockNumber()
    if (number > latest) throw refused(`Block ${number} is not mined yet (latest is ${latest}).`)
    block = await client.getBlock({ blockNumber: number, includeTransactions: true })
  }
  const receipts = await blockReceipts(client, block)
  return {
    timestamp: isoTime(block.timestamp),
    number: String(block.number),
    hash: block.hash,
    parent_hash: block.parentHash,
    nonce: block.nonce,
    sha3_uncles: block.sha3Uncles,
    logs_bloom: block.logsBloom,
    transactions_root: block.transactionsRoot,
    state_root: block.stateRoot,
    receipts_root: block.receiptsRoot,
    miner: block.miner.toLowerCase(),
    difficulty: block.difficulty.toString(),
    total_difficulty: (block.totalDifficulty ?? 0n).toString(),
    size: block.size.toString(),
    extra_data: block.extraData,
    gas_limit: block.gasLimit.toString(),
    gas_used: block.gasUsed.toString(),
    transaction_count: String(block.transactions.length),
    transactions: block.transactions.map((tx, i) =>
      transactionRow(tx, receipts[i], block.timestamp),
    ),
  }
}

/** A block's receipts: in one call where the node has `eth_getBlockReceipts`, else one by one. */
async function blockReceipts(
  client: PublicClient,
  block: Block<bigint, true>,
): Promise<TransactionReceipt[]> {
  if (block.transactions.length === 0) return []
  try {
    const raw: unknown = await client.request({
      method: 'eth_getBlockReceipts' as never,
      params: [block.hash] as never,
    })
    if (Array.isArray(raw) && raw.length === block.transactions.length)
      return (raw as RpcTransactionReceipt[]).map((receipt) => formatTransactionReceipt(receipt))
  } catch {
    // Not every node has it: read them one by one.
  }
  return Promise.all(
    block.transactions.map((tx) => client.getTransactionReceipt({ hash: tx.hash })),
  )
}

/** The last block mined at or before `date`: a binary search over the blocks' times. */
export const getDateToBlock: Endpoint = async ({ client, params }) => {
  const date = dateParam(params, 'date')
  if (!date) throw refused('date is required: ISO text or Unix time.')
  const target = BigInt(Math.floor(date.getTime() / 1000))
  const timeOf = async (number: bigint) =>
    (await client.getBlock({ blockNumber: number })).timestamp
  let low = 0n
  let high = await client.getBlockNumber()
  if ((await timeOf(low)) > target) high = 0n
  else if ((await timeOf(high)) <= target) low = high
  // Invariant: block `low` is at or before the date, block `high` after it (or the same).
  while (high - low > 1n) {
    const middle = (low + high) / 2n
    if ((await timeOf(middle)) <= target) low = middle
    else high = middle
  }
  const block = await client.getBlock({ blockNumber: low })
  return {
    date: date.toISOString(),
    block: Number(block.number),
    timestamp: Number(block.timestamp),
    block_timestamp: isoTime(block.timestamp),
    hash: block.hash,
    parent_hash: block.parentHash,
  }
}

/** The times of the blocks `numbers` (each block read once). */
export async function blockTimes(
  { client }: EndpointContext,
  numbers: Iterable<bigint>,
): Promise<Map<bigint, bigint>> {
  const unique = [...new Set(numbers)]
  const blocks = await Promise.all(unique.map((blockNumber) => client.getBlock({ blockNumber })))
  return new Map(blocks.map((block) => [block.number, block.timestamp]))
}
