import { decodeEventLog, parseAbi, type Hex, type Log } from 'viem'
import { addressParam, choiceParam, pageFrom, pageParams, refused, tokenIdParam } from './input.ts'
import { rangeLogs } from './logs.ts'
import { blockTimes } from './native.ts'
import { isoTime, type Endpoint, type EndpointContext } from './context.ts'

// One NFT contract's tokens, owners and transfers, replayed from its transfer events on the
// node (ERC-721 `Transfer`, ERC-1155 `TransferSingle`/`TransferBatch`), with each token's URI
// read from the contract and its metadata from that URI (metadata.ts).

const nftAbi = parseAbi([
  'event Transfer(address indexed from, address indexed to, uint256 indexed tokenId)',
  'event TransferSingle(address indexed operator, address indexed from, address indexed to, uint256 id, uint256 value)',
  'event TransferBatch(address indexed operator, address indexed from, address indexed to, uint256[] ids, uint256[] values)',
  'function supportsInterface(bytes4 interfaceId) view returns (bool)',
  'function name() view returns (string)',
  'function symbol() view returns (string)',
  'function tokenURI(uint256 tokenId) view returns (string)',
  'function uri(uint256 id) view returns (string)',
])

const TRANSFER = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef'
const TRANSFER_SINGLE = '0xc3d58168c5ae7397731d063d5bbf3d657854427343f4c083240f7aacaa2d0f62'
const TRANSFER_BATCH = '0x4a39dc06d4c0dbc64b70af90fd698a233a518aa5d07e595d983b8c0526c8f7fb'
const ZERO = '0x0000000000000000000000000000000000000000'

type ContractType = 'ERC721' | 'ERC1155'

export interface NftTransfer {
  log: Log
  tokenId: bigint
  from: string
  to: string
  amount: bigint
  operator: string | null
}

interface TokenState {
  owners: Map<string, bigint>
  minted: bigint
  changed: Map<string, bigint>
}

export interface NftContract {
  address: Hex
  type: ContractType
  name: string | null
  symbol: string | null
  /** Oldest first. */
  transfers: NftTransfer[]
  /** Tokens that exist (held by someone), by id, in id order. */
  tokens: Map<bigint, TokenState>
}

async function contractType(context: EndpointContext, address: Hex): Promise<ContractType> {
  const supports = (id: Hex) =>
    context.client
      .readContract({ address, abi: nftAbi, functionName: 'supportsInterface', args: [id] })
      .catch(() => false)
  const [is721, is1155] = await Promise.all([supports('0x80ac58cd'), supports('0xd9b67a26')])
  if (is721) return 'ERC721'
  if (is1155) return 'ERC1155'
  throw refused(`${address} is not an NFT contract (it reports neither ERC-721 nor ERC-1155).`)
}

/** The contract's state after its transfers in the call's block range. */
export async function readNftContract(
  context: EndpointContext,
  address: Hex,
): Promise<NftContract> {
  const type = await contractType(context, address)
  const topics: Hex[] = type === 'ERC721' ? [TRANSFER] : [TRANSFER_SINGLE, TRANSFER_BATCH]
  const [logs, name, symbol] = await Promise.all([
    rangeLogs(context, address, [topics]),
    context.client.readContract({ address, abi: nftAbi, functionName: 'name' }).catch(() => null),
    context.client.readContract({ address, abi: nftAbi, functionName: 'symbol' }).catch(() => null),
  ])
  const transfers: NftTransfer[] = []
  for (const log of logs.reverse()) {
    // An ERC-20 Transfer has three topics: not a token of this contract.
    if (type === 'ERC721' && log.topics.length !== 4) continue
    let decoded
    try {
      decoded = decodeEventLog({ abi: nftAbi, data: log.data, topics: log.topics as [Hex] })
    } catch {
      continue
    }
    const args = decoded.args as Record<string, unknown>
    const from = String(args.from).toLowerCase()
    const to = String(args.to).toLowerCase()
    const operator = args.operator ? String(args.operator).toLowerCase() : null
    if (decoded.eventName === 'Transfer')
      transfers.push({ log, tokenId: args.tokenId as bigint, from, to, amount: 1n, operator })
    else if (decoded.eventName === 'TransferSingle')
      transfers.push({
        log,
        tokenId: args.id as bigint,
        from,
        to,
        amount: args.value as bigint,
        operator,
      })
    else if (decoded.eventName === 'TransferBatch') {
      const ids = args.ids as bigint[]
      const values = args.values as bigint[]
      ids.forEach((id, i) =>
        transfers.push({ log, tokenId: id, from, to, amount: values[i] ?? 0n, operator }),
      )
    }
  }
  const tokens = new Map<bigint, TokenState>()
  for (const t of transfers) {
    const block = t.log.blockNumber!
    let token = tokens.get(t.tokenId)
    if (!token) {
      token = { owners: new Map(), minted: block, changed: new Map() }
      tokens.set(t.tokenId, token)
    }
    if (t.from !== ZERO) {
      const left = (token.owners.get(t.from) ?? 0n) - t.amount
      if (left > 0n) token.owners.set(t.from, left)
      else token.owners.delete(t.from)
      token.changed.set(t.from, block)
    }
    if (t.to !== ZERO) {
      token.owners.set(t.to, (type === 'ERC721' ? 0n : (token.owners.get(t.to) ?? 0n)) + t.amount)
      if (type === 'ERC721')
        for (const owner of token.owners.keys()) if (owner !== t.to) token.owners.delete(owner)
      token.changed.set(t.to, block)
    }
  }
  for (const [id, token] of tokens) if (token.owners.size === 0) tokens.delete(id)
  const sorted = new Map([...tokens].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
  return { address, type, name, symbol, transfers, tokens: sorted }
}

/** The token's URI as the contract gives it (ERC-1155's `{id}` filled in), or null. */
async function tokenUri(
  context: EndpointContext,
  nft: NftContract,
  id: bigint,
): Promise<string | null> {
  const uri = await context.client
    .readContract({
      address: nft.address,
      abi: nftAbi,
      functionName: nft.type === 'ERC721' ? 'tokenURI' : 'uri',
      args: [id],
    })
    .catch(() => null)
  if (!uri) return null
  return nft.type === 'ERC1155' ? uri.replaceAll('{id}', id.toString(16).padStart(64, '0')) : uri
}

const formatId = (id: bigint, format: 'decimal' | 'hex') =>
  format === 'hex' ? `0x${id.toString(16)}` : id.toString()

/** A token of `nft` in v1's shape (with `owner_of` and `amount` when one owner is meant). */
async function tokenRow(
  context: EndpointContext,
  nft: NftContract,
  id: bigint,
  owner?: { address: string; amount: bigint; block: bigint },
) {
  const format = choiceParam(context.params, 'format', ['decimal', 'hex'], 'decimal')
  const token = nft.tokens.get(id)
  const uri = await tokenUri(context, nft, id)
  const known = context.metadata.known(`${context.chainId}:${nft.address}:${id}`, uri)
  let amount = owner?.amount
  if (amount === undefined) amount = [...(token?.owners.values() ?? [])].reduce((a, b) => a + b, 0n)
  return {
    token_address: nft.address,
    token_id: formatId(id, format),
    contract_type: nft.type,
    ...(owner ? { owner_of: owner.address, block_number: String(owner.block) } : {}),
    block_number_minted: token ? String(token.minted) : null,
    token_uri: uri,
    metadata: known.metadata,
    synced_at: known.synced_at,
    last_token_uri_sync: known.synced_at,
    last_metadata_sync: known.synced_at,
    amount: amount.toString(),
    name: nft.name,
    symbol: nft.symbol,
    token_hash: null,
    possible_spam: false,
  }
}

function ownerRows(nft: NftContract, only?: bigint) {
  const rows: { id: bigint; address: string; amount: bigint; block: bigint }[] = []
  for (const [id, token] of nft.tokens) {
    if (only !== undefined && id !== only) continue
    for (const [address, amount] of token.owners)
      rows.push({ id, address, amount, block: token.changed.get(address) ?? token.minted })
  }
  return rows
}

/** A page of owners (of one token when `only` is given), with each token's details. */
async function ownersPage(context: EndpointContext, only?: 'token') {
  const nft = await readNftContract(context, addressParam(context.params))
  const id = only ? tokenIdParam(context.params) : undefined
  const request = pageParams(context.params)
  const rows = ownerRows(nft, id)
  const shown = rows.slice(request.offset, request.offset + request.limit)
  const result = await Promise.all(shown.map((row) => tokenRow(context, nft, row.id, row)))
  return { ...pageFrom(result, rows.length, request), status: 'SYNCED' }
}

export const getNFTOwners: Endpoint = (context) => ownersPage(context)

export const getTokenIdOwners: Endpoint = (context) => ownersPage(context, 'token')

export const getAllTokenIds: Endpoint = async (context) => {
  const nft = await readNftContract(context, addressParam(context.params))
  const request = pageParams(context.params)
  const ids = [...nft.tokens.keys()]
  const shown = ids.slice(request.offset, request.offset + request.limit)
  const result = await Promise.all(shown.map((id) => tokenRow(context, nft, id)))
  return pageFrom(result, ids.length, request)
}

export const getTokenIdMetadata: Endpoint = async (context) => {
  const nft = await readNftContract(context, addressParam(context.params))
  const id = tokenIdParam(context.params)
  const token = nft.tokens.get(id)
  if (!token)
    throw refused(`Token ${id} of ${nft.address} does not exist (never minted, or burnt).`)
  const [owner] = nft.type === 'ERC721' ? ownerRows(nft, id) : []
  return tokenRow(context, nft, id, owner)
}

export const getNFTMetadata: Endpoint = async (context) => {
  const address = addressParam(context.params)
  const type = await contractType(context, address)
  const [name, symbol] = await Promise.all([
    context.client.readContract({ address, abi: nftAbi, functionName: 'name' }).catch(() => null),
    context.client.readContract({ address, abi: nftAbi, functionName: 'symbol' }).catch(() => null),
  ])
  return { token_address: address, name, symbol, contract_type: type, synced_at: null }
}

export const getContractNFTTransfers: Endpoint = async (context) => {
  const nft = await readNftContract(context, addressParam(context.params))
  const format = choiceParam(context.params, 'format', ['decimal', 'hex'], 'decimal')
  const request = pageParams(context.params)
  const newest = [...nft.transfers].reverse()
  const shown = newest.slice(request.offset, request.offset + request.limit)
  const hashes = [...new Set(shown.map((t) => t.log.transactionHash!))]
  const [times, txs] = await Promise.all([
    blockTimes(
      context,
      shown.map((t) => t.log.blockNumber!),
    ),
    Promise.all(hashes.map((hash) => context.client.getTransaction({ hash }))),
  ])
  // `value` is what the transaction paid in the native token (a sale's price, often).
  const paid = new Map(txs.map((tx) => [tx.hash, tx.value.toString()]))
  const result = shown.map((t) => ({
    token_address: nft.address,
    token_id: formatId(t.tokenId, format),
    from_address: t.from,
    to_address: t.to,
    value: paid.get(t.log.transactionHash!) ?? null,
    amount: t.amount.toString(),
    contract_type: nft.type,
    block_number: String(t.log.blockNumber),
    block_timestamp: isoTime(times.get(t.log.blockNumber!)!),
    block_hash: t.log.blockHash,
    transaction_hash: t.log.transactionHash,
    transaction_type: t.log.topics[0] === TRANSFER_BATCH ? 'Batch' : 'Single',
    transaction_index: t.log.transactionIndex,
    log_index: t.log.logIndex,
    operator: t.operator,
    possible_spam: false,
  }))
  return pageFrom(result, newest.length, request)
}

/** Reads a token's metadata again from its URI (`mode: 'sync'` waits for it). */
export const reSyncMetadata: Endpoint = async (context) => {
  const address = addressParam(context.params)
  const id = tokenIdParam(context.params)
  const mode = choiceParam(context.params, 'mode', ['sync', 'async'], 'async')
  const type = await contractType(context, address)
  const nft = { address, type, name: null, symbol: null, transfers: [], tokens: new Map() }
  const uri = await tokenUri(context, nft, id)
  if (!uri) throw refused(`Token ${id} of ${address} has no token URI.`)
  const reading = context.metadata.resync(`${context.chainId}:${address}:${id}`, uri)
  if (mode === 'async') {
    void reading.catch(() => {})
    return { status: 'The metadata is being read again.' }
  }
  const read = await reading
  if (read.error) throw refused(`The metadata of token ${id} could not be read: ${read.error}.`)
  return { status: 'The metadata was read again.' }
}
