import { isAddress, toEventSelector, toEventSignature, type AbiEvent } from 'viem'
import { isValidName } from '../objects/names.ts'
import { compileFilter } from './watch-filter.ts'

// What `watchContractEvent` is given, read and checked before anything is watched: the table,
// the chain (as v1 named chains), the contract, the one event of its ABI, the filter and the
// limit. A mistake is a `WatchRefusal` whose message says what to send instead.

/** A watch refused: the message says why (the caller's mistake, not the server's). */
export class WatchRefusal extends Error {}

/** What `watchContractEvent` is given (v1's names). */
export interface WatchParams {
  chainId?: unknown
  address?: unknown
  topic?: unknown
  abi?: unknown
  tableName?: unknown
  sync_historical?: unknown
  limit?: unknown
  filter?: unknown
  [other: string]: unknown
}

/** Chain ids v1 gave every local development chain. */
export const V1_LOCAL_CHAIN = 1337
/** Local development chains (Hardhat and anvil, then Ganache). */
const LOCAL_CHAINS = [31337, 1337]

/** A watch's options as read from v1's. */
export interface ReadWatch {
  tableName: string
  chainId: number
  address: string
  event: AbiEvent
  filter: unknown
  limit: number | null
  historical: boolean
}

/** `params` read and checked; throws the refusal of the first mistake. */
export function readWatchParams(
  params: WatchParams,
  upstreams: ReadonlyMap<number, unknown>,
  localChainId: number | undefined,
): ReadWatch {
  const tableName = checkTableName(params.tableName)
  const chainId = resolveChain(params.chainId, upstreams, localChainId)
  if (typeof params.address !== 'string' || !isAddress(params.address, { strict: false }))
    throw new WatchRefusal('"address" is the contract address.')
  const address = params.address.toLowerCase()
  const event = eventOf(params.abi, params.topic)
  const filter = parseJson(params.filter, 'filter')
  if (filter !== undefined && filter !== null) {
    try {
      compileFilter(filter, event)
    } catch (error) {
      throw new WatchRefusal((error as Error).message)
    }
  }
  const limit = params.limit === undefined || params.limit === null ? null : Number(params.limit)
  if (limit !== null && (!Number.isInteger(limit) || limit < 1 || limit > 1_000_000_000))
    throw new WatchRefusal('"limit" is a positive whole number.')
  const historical = params.sync_historical === true || params.sync_historical === 'true'
  if (![undefined, null, true, false, 'true', 'false'].includes(params.sync_historical as never))
    throw new WatchRefusal('"sync_historical" is true or false.')
  return { tableName, chainId, address, event, filter, limit, historical }
}

export function checkTableName(value: unknown): string {
  if (!isValidName(value) || value.length > 58)
    throw new WatchRefusal(
      '"tableName" is a class name: a letter, then letters, digits and _ (at most 58).',
    )
  return value
}

/**
 * The configured chain a v1 `chainId` means: hex (`"0x7a69"`), decimal (`"31337"`, `31337`), or
 * none when one chain is configured. v1 called every local development chain "1337": that is
 * `localChainId` (COMPAT_LOCAL_CHAIN_ID) when set, else chain 1337 itself when configured, else
 * the one configured local chain (31337).
 */
export function resolveChain(
  value: unknown,
  upstreams: ReadonlyMap<number, unknown>,
  localChainId: number | undefined,
): number {
  const configured = [...upstreams.keys()]
  const list = configured.join(', ') || 'none'
  if (value === undefined || value === null || value === '') {
    if (configured.length === 1) return configured[0]!
    throw new WatchRefusal(`"chainId" is needed: this server has nodes for chains ${list}.`)
  }
  let id = Number.NaN
  if (typeof value === 'number') id = value
  else if (typeof value === 'string' && /^0x[0-9a-fA-F]{1,12}$/.test(value.trim()))
    id = Number.parseInt(value.trim(), 16)
  else if (typeof value === 'string' && /^[0-9]{1,15}$/.test(value.trim())) id = Number(value)
  if (!Number.isSafeInteger(id) || id <= 0)
    throw new WatchRefusal('"chainId" is a chain id, hex ("0x1") or decimal ("1").')
  if (id === V1_LOCAL_CHAIN) {
    const locals = configured.filter((chain) => LOCAL_CHAINS.includes(chain))
    if (localChainId !== undefined) id = localChainId
    else if (configured.includes(V1_LOCAL_CHAIN)) id = V1_LOCAL_CHAIN
    else if (locals.length === 1) id = locals[0]!
    else
      throw new WatchRefusal(
        'chain "1337" is what Moralis v1 called a local development chain: set COMPAT_LOCAL_CHAIN_ID to the configured chain it means.',
      )
  }
  if (!upstreams.has(id))
    throw new WatchRefusal(`no node is configured for chain ${id}: set RPC_URL_${id}.`)
  return id
}

/** The one event of `abi` (its object, a list holding it, or their JSON), checked against `topic`. */
function eventOf(abiValue: unknown, topicValue: unknown): AbiEvent {
  const abi = parseJson(abiValue, 'abi')
  if (abi === undefined || abi === null)
    throw new WatchRefusal(
      '"abi" (the event\'s ABI object) is needed: Portico stores each event input as its own field.',
    )
  const events = [abi]
    .flat()
    .filter(
      (item): item is AbiEvent =>
        (item as { type?: unknown })?.type === 'event' &&
        typeof (item as { name?: unknown }).name === 'string' &&
        Array.isArray((item as { inputs?: unknown }).inputs),
    )
  if (events.length === 0) throw new WatchRefusal('"abi" is the ABI object of one event.')
  let selectors: string[]
  try {
    selectors = events.map((event) => toEventSelector(event))
  } catch {
    throw new WatchRefusal('"abi" is the ABI object of one event (its inputs are not ABI types).')
  }
  if (typeof topicValue !== 'string' || topicValue.trim() === '') {
    if (events.length === 1) return events[0]!
    throw new WatchRefusal(
      '"topic" names the event to watch (for example "Transfer(address,address,uint256)").',
    )
  }
  const topic = topicValue.replace(/\s+/g, '')
  const index = /^0x[0-9a-fA-F]{64}$/.test(topic)
    ? selectors.indexOf(topic.toLowerCase())
    : events.findIndex((event) => toEventSignature(event) === topic.replace(/^event/, ''))
  if (index < 0)
    throw new WatchRefusal(
      `"topic" ${JSON.stringify(topicValue.slice(0, 120))} is not the event of "abi" (${events.map((e) => toEventSignature(e)).join(', ')}).`,
    )
  const event = events[index]!
  // Only what decodes a log is kept.
  return {
    type: 'event',
    name: event.name,
    anonymous: event.anonymous === true,
    inputs: event.inputs,
  } as AbiEvent
}

function parseJson(value: unknown, name: string): unknown {
  if (typeof value !== 'string') return value
  try {
    return JSON.parse(value)
  } catch {
    throw new WatchRefusal(`"${name}" is not valid JSON.`)
  }
}
