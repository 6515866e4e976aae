// Which JSON-RPC methods the gateway serves: reads and
// eth_sendRawTransaction. Not served: signing and account methods (the gateway holds no keys),
// filters and subscriptions (state on one upstream does not survive failover), node admin,
// debug and anvil_/hardhat_ test methods.
export const allowedMethods: ReadonlySet<string> = new Set([
  'eth_blockNumber',
  'eth_chainId',
  'eth_call',
  'eth_estimateGas',
  'eth_createAccessList',
  'eth_gasPrice',
  'eth_maxPriorityFeePerGas',
  'eth_blobBaseFee',
  'eth_feeHistory',
  'eth_getBalance',
  'eth_getCode',
  'eth_getStorageAt',
  'eth_getTransactionCount',
  'eth_getProof',
  'eth_getBlockByHash',
  'eth_getBlockByNumber',
  'eth_getBlockReceipts',
  'eth_getBlockTransactionCountByHash',
  'eth_getBlockTransactionCountByNumber',
  'eth_getUncleCountByBlockHash',
  'eth_getUncleCountByBlockNumber',
  'eth_getTransactionByHash',
  'eth_getTransactionByBlockHashAndIndex',
  'eth_getTransactionByBlockNumberAndIndex',
  'eth_getTransactionReceipt',
  'eth_getLogs',
  'eth_syncing',
  'net_version',
  'net_listening',
  'web3_clientVersion',
  'eth_sendRawTransaction',
])

/**
 * Whether identical calls arriving together may share one upstream call: every served method but
 * the one that writes (a transaction is sent once per request, as its sender asked).
 */
export const isSharedRead = (method: string) => method !== 'eth_sendRawTransaction'

/**
 * Whether a call goes upstream in an exchange of its own rather than in a batch: those whose
 * cost grows with the data asked for (a range of logs, a block's receipts), so they never hold
 * up the small calls that would share their batch.
 */
export const goesAlone = (method: string) =>
  method === 'eth_getLogs' || method === 'eth_getBlockReceipts'

const blockHash = /^0x[0-9a-fA-F]{64}$/

// Methods whose first parameter, when it is a block hash, fixes the answer forever.
const byBlockHashFirst = new Set([
  'eth_getBlockByHash',
  'eth_getBlockTransactionCountByHash',
  'eth_getUncleCountByBlockHash',
  'eth_getTransactionByBlockHashAndIndex',
  'eth_getBlockReceipts',
])

// Methods that take an EIP-1898 block parameter `{ blockHash }` at this position.
const blockParamIndex: Record<string, number> = {
  eth_getBalance: 1,
  eth_getCode: 1,
  eth_getTransactionCount: 1,
  eth_getStorageAt: 2,
  eth_call: 1,
  eth_getProof: 2,
}

const txHash = blockHash

/**
 * Methods whose answer is fixed once the transaction's block is final (a reorg can still move a
 * transaction that is only a few blocks deep): cached only then, see `isFinal`.
 */
export function isCacheableWhenFinal(method: string, params: unknown): boolean {
  return (
    (method === 'eth_getTransactionReceipt' || method === 'eth_getTransactionByHash') &&
    Array.isArray(params) &&
    typeof params[0] === 'string' &&
    txHash.test(params[0])
  )
}

/** The block number a receipt or transaction answer says it is in, if any. */
export function blockNumberOf(result: unknown): bigint | undefined {
  const hex = (result as { blockNumber?: unknown } | null)?.blockNumber
  return typeof hex === 'string' && /^0x[0-9a-fA-F]{1,16}$/.test(hex) ? BigInt(hex) : undefined
}

/**
 * True when the answer can be cached for good: `eth_chainId`, and calls addressed by block hash
 * (a block's hash fixes its content, whatever reorgs happen later).
 */
export function isCacheable(method: string, params: unknown): boolean {
  if (method === 'eth_chainId') return true
  if (!Array.isArray(params)) return false
  if (byBlockHashFirst.has(method))
    return typeof params[0] === 'string' && blockHash.test(params[0])
  const index = blockParamIndex[method]
  if (index === undefined) return false
  const block = params[index] as { blockHash?: unknown } | undefined
  return typeof block?.blockHash === 'string' && blockHash.test(block.blockHash)
}
