import {
  decodeEventLog,
  keccak256,
  toBytes,
  toEventSelector,
  type AbiEvent,
  type Hex,
  type Log,
} from 'viem'
import { addressParam, blockParam, pageParams, pageFrom, refused } from './input.ts'
import { blockTimes, logRow } from './native.ts'
import { isoTime, plain, type Endpoint, type EndpointContext } from './context.ts'

// Logs of one contract, from the node (`eth_getLogs` over the asked range, newest first as v1
// answered): `getLogsByAddress` raw, `getContractEvents` decoded with the event's ABI.

const TOPIC = /^0x[0-9a-fA-F]{64}$/

/** The logs of `address` matching `topics` in the call's block range, newest first. */
export async function rangeLogs(
  context: EndpointContext,
  address: Hex,
  topics: (Hex | Hex[] | null)[],
): Promise<Log[]> {
  const { client, params } = context
  const latest = await client.getBlockNumber()
  const fromBlock = blockParam(params, 'from_block') ?? 0n
  const toBlock = blockParam(params, 'to_block') ?? latest
  if (fromBlock > toBlock) throw refused('from_block is after to_block.')
  const logs = await client.request({
    method: 'eth_getLogs',
    params: [
      {
        address,
        topics,
        fromBlock: `0x${fromBlock.toString(16)}`,
        toBlock: `0x${(toBlock > latest ? latest : toBlock).toString(16)}`,
      },
    ],
  })
  return (logs as unknown as RawLog[]).map(readLog).reverse()
}

interface RawLog {
  address: Hex
  topics: Hex[]
  data: Hex
  blockNumber: Hex
  blockHash: Hex
  transactionHash: Hex
  transactionIndex: Hex
  logIndex: Hex
  removed?: boolean
}

const readLog = (raw: RawLog): Log =>
  ({
    address: raw.address,
    topics: raw.topics,
    data: raw.data,
    blockNumber: BigInt(raw.blockNumber),
    blockHash: raw.blockHash,
    transactionHash: raw.transactionHash,
    transactionIndex: Number(raw.transactionIndex),
    logIndex: Number(raw.logIndex),
    removed: raw.removed ?? false,
  }) as Log

function topicParam(params: Record<string, unknown>, key: string): Hex | null {
  const value = params[key]
  if (value === undefined || value === null || value === '') return null
  if (typeof value !== 'string' || !TOPIC.test(value))
    throw refused(`${key} is a log topic: 0x and 64 hex digits.`)
  return value.toLowerCase() as Hex
}

export const getLogsByAddress: Endpoint = async (context) => {
  const { params } = context
  const address = addressParam(params)
  const topics = ['topic0', 'topic1', 'topic2', 'topic3'].map((key) => topicParam(params, key))
  while (topics.length && topics[topics.length - 1] === null) topics.pop()
  const request = pageParams(params)
  const logs = await rangeLogs(context, address, topics)
  const shown = logs.slice(request.offset, request.offset + request.limit)
  const times = await blockTimes(
    context,
    shown.map((log) => log.blockNumber!),
  )
  const rows = shown.map((log) => ({
    ...logRow(log, times.get(log.blockNumber!)!),
    transaction_index: log.transactionIndex,
    log_index: log.logIndex,
  }))
  return pageFrom(rows, logs.length, request)
}

/** The event `abi` describes, checked against `topic` (its signature or its hash). */
function eventOf(params: Record<string, unknown>): { event: AbiEvent; topic0: Hex } {
  const abi = Array.isArray(params.abi)
    ? params.abi.find((item) => item?.type === 'event')
    : params.abi
  const event = abi as AbiEvent | undefined
  if (!event || typeof event !== 'object' || event.type !== 'event' || !Array.isArray(event.inputs))
    throw refused('abi is required: the ABI object of the event (type "event", name, inputs).')
  let topic0: Hex
  try {
    topic0 = toEventSelector(event)
  } catch {
    throw refused('abi is not a valid event ABI.')
  }
  const topic = params.topic
  if (typeof topic === 'string' && topic !== '') {
    const wanted = TOPIC.test(topic)
      ? topic.toLowerCase()
      : keccak256(toBytes(topic.replace(/\s+/g, '')))
    if (wanted !== topic0)
      throw refused(
        `topic ${topic.slice(0, 80)} is not the event the abi describes (${event.name}).`,
      )
  } else if (topic !== undefined && topic !== null && topic !== '')
    throw refused(
      'topic is the event signature, e.g. Transfer(address,address,uint256), or its hash.',
    )
  return { event, topic0 }
}

export const getContractEvents: Endpoint = async (context) => {
  const { params } = context
  const address = addressParam(params)
  const { event, topic0 } = eventOf(params)
  const request = pageParams(params)
  const logs = await rangeLogs(context, address, [topic0])
  const shown = logs.slice(request.offset, request.offset + request.limit)
  const times = await blockTimes(
    context,
    shown.map((log) => log.blockNumber!),
  )
  const rows = shown.map((log) => {
    let data: unknown = null
    try {
      const decoded = decodeEventLog({ abi: [event], data: log.data, topics: log.topics as [Hex] })
      data = lowerAddresses(plain(decoded.args))
    } catch {
      // A log with the event's topic but another layout (indexed differently): shown undecoded.
    }
    return {
      transaction_hash: log.transactionHash,
      address: log.address.toLowerCase(),
      block_timestamp: isoTime(times.get(log.blockNumber!)!),
      block_number: String(log.blockNumber),
      block_hash: log.blockHash,
      data,
    }
  })
  return pageFrom(rows, logs.length, request)
}

/** v1 gave addresses in lowercase. */
function lowerAddresses(value: unknown): unknown {
  if (typeof value === 'string')
    return /^0x[0-9a-fA-F]{40}$/.test(value) ? value.toLowerCase() : value
  if (Array.isArray(value)) return value.map(lowerAddresses)
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, lowerAddresses(v)]))
  return value
}
