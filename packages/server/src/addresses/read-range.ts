import { decodeAbiParameters, hexToString, pad, toEventSelector, type Hex } from 'viem'
import type { RawLog } from '../sync/log-stream.ts'
import type { BlockHeader, NodeClient } from '../sync/node-client.ts'
import { checkUnchanged, hashBeforeRead } from '../sync/reorg.ts'

// Reads one block range of an address group from the node: its token transfers found by topic
// filters on the addresses (never every log of the chain), and its native transactions by
// scanning the range's blocks. Every address mode reads every transfer instead.

export const TRANSFER = toEventSelector('event Transfer(address indexed, address indexed, uint256)')
export const TRANSFER_SINGLE = toEventSelector(
  'event TransferSingle(address indexed, address indexed, address indexed, uint256, uint256)',
)
export const TRANSFER_BATCH = toEventSelector(
  'event TransferBatch(address indexed, address indexed, address indexed, uint256[], uint256[])',
)

interface Where {
  transactionHash: string
  transactionIndex: number
  logIndex: number
  blockNumber: bigint
  blockHash: string
}

export interface TokenTransfer extends Where {
  tokenAddress: string
  fromAddress: string
  toAddress: string
  value: string
}

export interface NftTransfer extends Where {
  batchIndex: number
  tokenAddress: string
  tokenId: string
  contractType: 'ERC721' | 'ERC1155'
  transactionType: 'Single' | 'Batch'
  amount: string
  operator: string | null
  fromAddress: string
  toAddress: string
}

export interface NativeTransaction {
  hash: string
  nonce: bigint
  transactionIndex: number
  fromAddress: string
  toAddress: string | null
  value: string
  gas: string
  gasPrice: string
  input: string
  receiptCumulativeGasUsed: string
  receiptGasUsed: string
  receiptContractAddress: string | null
  receiptStatus: number
  blockNumber: bigint
  blockHash: string
}

export interface RangeContent {
  tokens: TokenTransfer[]
  nfts: NftTransfer[]
  transactions: NativeTransaction[]
  /** Headers of the blocks whose rows were read (times) and of those whose hashes are kept. */
  headers: Map<bigint, BlockHeader>
}

const topicOf = (address: string) => pad(address.toLowerCase() as Hex, { size: 32 })
const addressOf = (topic: string) => `0x${topic.slice(26)}`.toLowerCase()

/** The transfers a log is (none when it is no transfer this index knows). */
export function decodeTransfer(log: RawLog): { token?: TokenTransfer; nfts?: NftTransfer[] } {
  const where: Where = {
    transactionHash: log.transactionHash.toLowerCase(),
    transactionIndex: Number(log.transactionIndex),
    logIndex: Number(log.logIndex),
    blockNumber: BigInt(log.blockNumber),
    blockHash: log.blockHash,
  }
  const [topic, ...args] = log.topics
  const tokenAddress = log.address.toLowerCase()
  try {
    if (topic === TRANSFER && args.length === 2 && log.data.length === 66)
      return {
        token: {
          ...where,
          tokenAddress,
          fromAddress: addressOf(args[0]!),
          toAddress: addressOf(args[1]!),
          value: BigInt(log.data).toString(),
        },
      }
    if (topic === TRANSFER && args.length === 3)
      return {
        nfts: [
          {
            ...where,
            batchIndex: 0,
            tokenAddress,
            tokenId: BigInt(args[2]!).toString(),
            contractType: 'ERC721',
            transactionType: 'Single',
            amount: '1',
            operator: null,
            fromAddress: addressOf(args[0]!),
            toAddress: addressOf(args[1]!),
          },
        ],
      }
    if ((topic === TRANSFER_SINGLE || topic === TRANSFER_BATCH) && args.length === 3) {
      const [ids, values] =
        topic === TRANSFER_SINGLE
          ? decodeAbiParameters([{ type: 'uint256' }, { type: 'uint256' }], log.data as Hex).map(
              (n) => [n],
            )
          : decodeAbiParameters([{ type: 'uint256[]' }, { type: 'uint256[]' }], log.data as Hex)
      if (ids!.length !== values!.length) return {}
      return {
        nfts: ids!.map((id, i) => ({
          ...where,
          batchIndex: i,
          tokenAddress,
          tokenId: id.toString(),
          contractType: 'ERC1155' as const,
          transactionType: topic === TRANSFER_SINGLE ? ('Single' as const) : ('Batch' as const),
          amount: values![i]!.toString(),
          operator: addressOf(args[0]!),
          fromAddress: addressOf(args[1]!),
          toAddress: addressOf(args[2]!),
        })),
      }
    }
  } catch {
    // Not the standard event's layout (another contract's event with the same selector).
  }
  return {}
}

/**
 * The transfer and transaction rows of blocks `from` to `to` for `addresses` (lowercase; every
 * address when undefined).
 */
export async function readRange(
  client: NodeClient,
  options: {
    addresses: string[] | undefined
    from: bigint
    to: bigint
    /** Blocks from here up have their hashes kept (reorgs are looked for there). */
    keepFrom: bigint
    /** How native transactions are found: the node's `ots_` index, scanning blocks, or not. */
    native: 'ots' | 'blocks' | 'off'
    /** Headers of blocks below `keepFrom` read before (final by the confirmations). */
    finalHeaders?: FinalHeaders
  },
): Promise<RangeContent> {
  const { addresses, from, to } = options
  const lastHash = await hashBeforeRead(client, to, options.keepFrom)
  const logs = new Map<string, RawLog>()
  const collect = () => (log: RawLog) => {
    if (!log.removed) logs.set(`${log.transactionHash}:${log.logIndex}`, log)
  }
  const topics = addresses?.map(topicOf)
  const filters: (string[] | null)[][] = topics
    ? [
        [[TRANSFER], topics],
        [[TRANSFER], null, topics],
        [[TRANSFER_SINGLE, TRANSFER_BATCH], null, topics],
        [[TRANSFER_SINGLE, TRANSFER_BATCH], null, null, topics],
      ]
    : [[[TRANSFER, TRANSFER_SINGLE, TRANSFER_BATCH]]]
  await Promise.all(
    filters.map((filter) =>
      client.logs({ topics: filter, fromBlock: from, toBlock: to }, () => {
        // A retry on another node starts over: what the first gave is read again.
        return collect()
      }),
    ),
  )
  const tokens: TokenTransfer[] = []
  const nfts: NftTransfer[] = []
  const wanted = addresses ? new Set(addresses) : undefined
  const concerns = (a: string, b: string | null) =>
    !wanted || wanted.has(a) || (b !== null && wanted.has(b))
  for (const log of logs.values()) {
    const decoded = decodeTransfer(log)
    if (decoded.token && concerns(decoded.token.fromAddress, decoded.token.toAddress))
      tokens.push(decoded.token)
    for (const nft of decoded.nfts ?? [])
      if (concerns(nft.fromAddress, nft.toAddress)) nfts.push(nft)
  }
  const transactions =
    options.native === 'off'
      ? []
      : options.native === 'ots' && addresses
        ? await searchTransactions(client, addresses, from, to)
        : await scanBlocks(client, from, to, concerns)
  const needed = new Set<bigint>()
  for (const row of [...tokens, ...nfts, ...transactions]) needed.add(row.blockNumber)
  for (let n = from > options.keepFrom ? from : options.keepFrom; n <= to; n++) needed.add(n)
  const headers = await readHeaders(client, [...needed], options.keepFrom, options.finalHeaders)
  for (const number of needed)
    if (!headers.has(number)) throw new Error(`the node has no block ${number} yet`)
  for (const row of [...tokens, ...nfts, ...transactions])
    if (headers.get(row.blockNumber)!.hash !== row.blockHash) {
      // A reorg deeper than the confirmations: the kept header is read again with the range.
      options.finalHeaders?.forget(row.blockNumber)
      throw new Error('a block changed while it was read; reading again')
    }
  checkUnchanged(headers, to, lastHash)
  return { tokens, nfts, transactions, headers }
}

/**
 * Headers of blocks below the kept ones, which the index treats as final (their hashes are not
 * kept, so no reorg is looked for there). Every address group of a backfill reads the same blocks'
 * headers for its rows' times; kept here, each is asked of the node once. Bounded: the oldest go
 * first.
 */
export class FinalHeaders {
  private readonly headers = new Map<bigint, BlockHeader>()

  constructor(private readonly max = 20_000) {}

  get(number: bigint): BlockHeader | undefined {
    return this.headers.get(number)
  }

  add(header: BlockHeader): void {
    if (this.headers.size >= this.max) {
      const oldest = this.headers.keys().next()
      if (!oldest.done) this.headers.delete(oldest.value)
    }
    this.headers.set(header.number, header)
  }

  forget(number: bigint): void {
    this.headers.delete(number)
  }

  clear(): void {
    this.headers.clear()
  }
}

/** The headers of `numbers`: the final ones from `cache` where it has them, the rest from the node. */
async function readHeaders(
  client: NodeClient,
  numbers: bigint[],
  keepFrom: bigint,
  cache: FinalHeaders | undefined,
): Promise<Map<bigint, BlockHeader>> {
  if (!cache) return client.blocks(numbers)
  const headers = new Map<bigint, BlockHeader>()
  const missing: bigint[] = []
  for (const number of numbers) {
    const known = number < keepFrom ? cache.get(number) : undefined
    if (known) headers.set(number, known)
    else missing.push(number)
  }
  if (missing.length === 0) return headers
  for (const [number, header] of await client.blocks(missing)) {
    headers.set(number, header)
    if (number < keepFrom) cache.add(header)
  }
  return headers
}

interface RpcTransaction {
  hash: string
  nonce: string
  transactionIndex: string
  from: string
  to: string | null
  value: string
  gas: string
  gasPrice?: string
  input: string
  blockNumber: string
  blockHash: string
}

interface RpcReceipt {
  cumulativeGasUsed: string
  gasUsed: string
  contractAddress: string | null
  status?: string
  effectiveGasPrice?: string
}

const hex = (n: bigint) => `0x${n.toString(16)}`

/** Transactions of blocks `from` to `to` asked page by page per address of the node's own index. */
async function searchTransactions(
  client: NodeClient,
  addresses: string[],
  from: bigint,
  to: bigint,
): Promise<NativeTransaction[]> {
  const found = new Map<string, NativeTransaction>()
  for (const address of addresses) {
    let after = from > 0n ? from - 1n : 0n
    for (;;) {
      const page = await client.call<{ txs: RpcTransaction[]; receipts: RpcReceipt[] }>(
        'ots_searchTransactionsAfter',
        [address, Number(after), OTS_PAGE],
      )
      const txs = page?.txs ?? []
      let last = after
      txs.forEach((tx, i) => {
        const block = BigInt(tx.blockNumber)
        if (block > last) last = block
        if (block >= from && block <= to)
          found.set(tx.hash.toLowerCase(), shaped(tx, page.receipts[i]))
      })
      if (txs.length < OTS_PAGE || last >= to) break
      // Pages hold whole blocks, but read the last one again in case: rows are keyed by hash.
      after = last - 1n > after ? last - 1n : last
    }
  }
  return [...found.values()]
}

/** Transactions per `ots_searchTransactionsAfter` page (Otterscan's own page size). */
const OTS_PAGE = 25

/** The transactions of blocks `from` to `to` that `concerns`, with their receipts. */
async function scanBlocks(
  client: NodeClient,
  from: bigint,
  to: bigint,
  concerns: (a: string, b: string | null) => boolean,
): Promise<NativeTransaction[]> {
  const numbers: bigint[] = []
  for (let n = from; n <= to; n++) numbers.push(n)
  const blocks = (await client.batch(
    numbers.map((n) => ({ method: 'eth_getBlockByNumber', params: [hex(n), true] })),
    20,
  )) as ({ transactions: RpcTransaction[] } | null)[]
  const found: RpcTransaction[] = []
  for (const block of blocks) {
    if (!block) throw new Error('the node has not every block of the range yet')
    for (const tx of block.transactions)
      if (concerns(tx.from.toLowerCase(), tx.to?.toLowerCase() ?? null)) found.push(tx)
  }
  const receipts = (await client.batch(
    found.map((tx) => ({ method: 'eth_getTransactionReceipt', params: [tx.hash] })),
  )) as (RpcReceipt | null)[]
  return found.map((tx, i) => shaped(tx, receipts[i]))
}

function shaped(tx: RpcTransaction, receipt: RpcReceipt | null | undefined): NativeTransaction {
  if (!receipt) throw new Error('the node has no receipt of a transaction of its block')
  return {
    hash: tx.hash.toLowerCase(),
    nonce: BigInt(tx.nonce),
    transactionIndex: Number(tx.transactionIndex),
    fromAddress: tx.from.toLowerCase(),
    toAddress: tx.to?.toLowerCase() ?? null,
    value: BigInt(tx.value).toString(),
    gas: BigInt(tx.gas).toString(),
    gasPrice: BigInt(receipt.effectiveGasPrice ?? tx.gasPrice ?? '0x0').toString(),
    input: tx.input,
    receiptCumulativeGasUsed: BigInt(receipt.cumulativeGasUsed).toString(),
    receiptGasUsed: BigInt(receipt.gasUsed).toString(),
    receiptContractAddress: receipt.contractAddress?.toLowerCase() ?? null,
    receiptStatus: receipt.status === undefined ? 1 : Number(receipt.status),
    blockNumber: BigInt(tx.blockNumber),
    blockHash: tx.blockHash,
  }
}

/** Reads a token's name, symbol and decimals (each null when the contract does not answer). */
export async function readTokenMetadata(
  client: NodeClient,
  address: string,
): Promise<{ name: string | null; symbol: string | null; decimals: number | null }> {
  const read = async (data: string) =>
    client
      .call<string>('eth_call', [{ to: address, data }, 'latest'])
      .then((result) => (typeof result === 'string' && result.length > 2 ? result : null))
      .catch(() => null)
  const [name, symbol, decimals] = await Promise.all([
    read('0x06fdde03'),
    read('0x95d89b41'),
    read('0x313ce567'),
  ])
  const decimalsValue = decimals ? BigInt(decimals.slice(0, 66)) : null
  return {
    name: textOf(name),
    symbol: textOf(symbol),
    decimals: decimalsValue !== null && decimalsValue <= 255n ? Number(decimalsValue) : null,
  }
}

/** An NFT's token URI (`tokenURI` for ERC-721, `uri` for ERC-1155); null when not answered. */
export async function readTokenUri(
  client: NodeClient,
  token: string,
  tokenId: string,
  contractType: 'ERC721' | 'ERC1155',
): Promise<string | null> {
  const selector = contractType === 'ERC721' ? '0xc87b56dd' : '0x0e89341c'
  const data = selector + BigInt(tokenId).toString(16).padStart(64, '0')
  const result = await client
    .call<string>('eth_call', [{ to: token, data }, 'latest'])
    .catch(() => null)
  return textOf(typeof result === 'string' && result.length > 2 ? result : null)
}

/** An ABI string result, or a bytes32 one (old tokens); null when neither. */
function textOf(result: string | null): string | null {
  if (!result) return null
  try {
    const [text] = decodeAbiParameters([{ type: 'string' }], result as Hex)
    return text.replace(/\0/g, '').slice(0, 1000)
  } catch {
    if (result.length === 66) return hexToString(result as Hex, { size: 32 }).replace(/\0/g, '')
    return null
  }
}
