import { createHash } from 'node:crypto'
import { syncedRowFields, type SyncedRowField } from '@portico/sdk/wire'
import {
  decodeEventLog,
  getAddress,
  toEventSelector,
  type AbiEvent,
  type AbiParameter,
  type Hex,
} from 'viem'
import { isValidName, RESERVED_FIELDS } from '../objects/names.ts'
import type { Document } from '../objects/wire.ts'
import type { RawLog } from './log-stream.ts'

// A log → the document of its row: the decoded arguments as fields, then where it happened.
// Integers wider than 48 bits are decimal strings (always, so a field keeps one type and no
// value is ever rounded: JavaScript numbers are exact only up to 2^53); narrower ones are
// numbers. Addresses are checksummed.

/** Integers this wide or narrower are numbers; wider ones decimal strings. */
const NUMBER_BITS = 48

/** The field an ABI argument is stored under. */
export function fieldFor(name: string | undefined, index: number): string {
  const base = name && isValidName(name) ? name : `arg${index}`
  return RESERVED_FIELDS.has(base) || (syncedRowFields as readonly string[]).includes(base)
    ? `${base}_`
    : base
}

function valueOf(parameter: AbiParameter, value: unknown): unknown {
  const type = parameter.type
  if (type.endsWith(']')) {
    const inner = { ...parameter, type: type.slice(0, type.lastIndexOf('[')) } as AbiParameter
    return (value as unknown[]).map((item) => valueOf(inner, item))
  }
  if (type === 'tuple') {
    const components = (parameter as { components: readonly AbiParameter[] }).components
    const out: Record<string, unknown> = {}
    components.forEach((component, i) => {
      const item = Array.isArray(value)
        ? value[i]
        : (value as Record<string, unknown>)[component.name ?? '']
      out[fieldFor(component.name, i)] = valueOf(component, item)
    })
    return out
  }
  const integer = /^u?int(\d*)$/.exec(type)
  if (integer) {
    const bits = Number(integer[1] || 256)
    return bits <= NUMBER_BITS ? Number(value) : (value as bigint).toString()
  }
  if (type === 'address') return getAddress(value as string)
  return value
}

/**
 * The top-level fields the rows of `events` hold integers in wider than a number keeps exact,
 * as decimal strings (their queries compare them as numbers).
 */
export function integerFieldsOf(events: readonly AbiEvent[]): Set<string> {
  const fields = new Set<string>()
  for (const event of events)
    event.inputs.forEach((input, i) => {
      const integer = /^u?int(\d*)$/.exec(input.type)
      if (integer && Number(integer[1] || 256) > NUMBER_BITS) fields.add(fieldFor(input.name, i))
    })
  return fields
}

/** The id of a log's row: the same log always gets the same id (chain, transaction, index). */
export function rowId(chainId: number, transactionHash: string, logIndex: number): string {
  return createHash('sha256')
    .update(`${chainId}:${transactionHash.toLowerCase()}:${logIndex}`)
    .digest('base64url')
    .slice(0, 22)
}

/** A decoded log: its row's id and document, and where it is. */
export interface DecodedLog {
  id: string
  data: Document
  blockNumber: bigint
  blockHash: string
  /** The block's time when the node sent it with the log (else the block is read for it). */
  timestamp: bigint | undefined
}

/** Reads one word (32 bytes, 64 hex digits) of a static ABI type; undefined for other types. */
type WordReader = (word: string) => unknown

/**
 * Decodes the logs of a sync's events into rows. Events whose inputs are all one word wide
 * (addresses, integers, booleans, fixed bytes: nearly every token event) are read straight from
 * the topics and data, an order of magnitude faster than a general decoder; others go through
 * viem's `decodeEventLog`. Both give the same document.
 */
export class LogDecoder {
  readonly #bySelector = new Map<string, { event: AbiEvent; readers: WordReader[] | undefined }>()
  readonly #anonymous: AbiEvent[]
  readonly #addresses = new Map<string, string>()

  constructor(
    readonly events: readonly AbiEvent[],
    private readonly chainId: number,
  ) {
    for (const event of events) {
      if (event.anonymous) continue
      const readers = event.inputs.map((input) => wordReader(input, this.#checksum))
      this.#bySelector.set(toEventSelector(event), {
        event,
        readers: readers.every(Boolean) ? (readers as WordReader[]) : undefined,
      })
    }
    this.#anonymous = events.filter((event) => event.anonymous)
  }

  /** The `topics` filter that selects these events' logs (none when one is anonymous). */
  topics(): (string[] | null)[] | undefined {
    return this.#anonymous.length ? undefined : [[...this.#bySelector.keys()]]
  }

  /** The row of `log`; undefined for a log none of the events describes exactly. */
  decode(log: RawLog, confirmed: boolean): DecodedLog | undefined {
    const known = this.#bySelector.get(log.topics[0]?.toLowerCase() ?? '')
    let event: AbiEvent
    let values: unknown[] | undefined
    if (known?.readers) {
      event = known.event
      values = readWords(event, known.readers, log)
    } else {
      const decoded = this.#general(log)
      if (!decoded) return undefined
      event = decoded.event
      values = decoded.values
    }
    if (!values) return undefined
    const data: Document = {}
    event.inputs.forEach((input, i) => {
      data[fieldFor(input.name, i)] = values[i]
    })
    const blockNumber = BigInt(log.blockNumber)
    const timestamp = log.blockTimestamp === undefined ? undefined : BigInt(log.blockTimestamp)
    const logIndex = Number(log.logIndex)
    Object.assign(data, {
      event: event.name,
      chainId: this.chainId,
      address: this.#checksum(log.address),
      blockNumber: Number(blockNumber),
      blockHash: log.blockHash,
      blockTimestamp: timestamp === undefined ? null : this.#dateOf(timestamp),
      transactionHash: log.transactionHash,
      transactionIndex: Number(log.transactionIndex),
      logIndex,
      confirmed,
    } satisfies Record<SyncedRowField, unknown>)
    return {
      id: rowId(this.chainId, log.transactionHash, logIndex),
      data,
      blockNumber,
      blockHash: log.blockHash,
      timestamp,
    }
  }

  /** The time of the block last decoded: the logs of one block share it. */
  #lastTime: { seconds: bigint; iso: string } | undefined

  #dateOf(seconds: bigint): ReturnType<typeof dateOf> {
    if (this.#lastTime?.seconds !== seconds) this.#lastTime = { seconds, iso: dateOf(seconds).iso }
    return { __type: 'Date', iso: this.#lastTime.iso }
  }

  /** Addresses checksummed once each (a keccak hash per address otherwise, per log). */
  #checksum = (address: string): string => {
    const lower = address.toLowerCase()
    let known = this.#addresses.get(lower)
    if (known === undefined) {
      if (this.#addresses.size >= 50_000) this.#addresses.clear()
      known = getAddress(lower)
      this.#addresses.set(lower, known)
    }
    return known
  }

  #general(log: RawLog): { event: AbiEvent; values: unknown[] } | undefined {
    let decoded: { eventName: string; args: unknown }
    try {
      decoded = decodeEventLog({
        abi: this.events,
        data: log.data as Hex,
        topics: log.topics as [Hex, ...Hex[]],
        strict: true,
      }) as never
    } catch {
      return undefined
    }
    const event = this.events.find((e) => e.name === decoded.eventName)!
    const args = decoded.args as Record<string, unknown> | unknown[]
    return {
      event,
      values: event.inputs.map((input, i) =>
        valueOf(input, Array.isArray(args) ? args[i] : args[input.name ?? '']),
      ),
    }
  }
}

/** A block time as the row's `blockTimestamp` (a Date). */
export const dateOf = (seconds: bigint) => ({
  __type: 'Date' as const,
  iso: new Date(Number(seconds) * 1000).toISOString(),
})

const HEX_WORD = /^[0-9a-fA-F]{64}$/

/** The values of an event whose inputs are one word each: indexed ones from topics, others from data. */
function readWords(event: AbiEvent, readers: WordReader[], log: RawLog): unknown[] | undefined {
  const indexed = event.inputs.filter((input) => input.indexed).length
  const plain = event.inputs.length - indexed
  // As strict decoding: exactly the topics and data words the event has.
  if (log.topics.length !== indexed + 1 || log.data.length !== 2 + 64 * plain) return undefined
  let topic = 1
  let word = 0
  const values: unknown[] = []
  for (const [i, input] of event.inputs.entries()) {
    const text = input.indexed
      ? log.topics[topic++]!.slice(2)
      : log.data.slice(2 + 64 * word, 2 + 64 * ++word)
    if (!HEX_WORD.test(text)) return undefined
    const value = readers[i]!(text)
    if (value === undefined) return undefined
    values.push(value)
  }
  return values
}

/** How to read a one-word input as its field value (see `valueOf`); undefined for other types. */
function wordReader(
  input: AbiParameter,
  checksum: (address: string) => string,
): WordReader | undefined {
  const type = input.type
  // As viem reads them (an address is the word's last 20 bytes, an integer the whole word).
  if (type === 'address') return (word) => checksum(`0x${word.slice(24)}`)
  if (type === 'bool') return (word) => (/^0{63}[01]$/.test(word) ? word.endsWith('1') : undefined)
  const fixed = /^bytes([1-9]|[12][0-9]|3[0-2])$/.exec(type)
  if (fixed) {
    const size = Number(fixed[1]) * 2
    return (word) =>
      /^0*$/.test(word.slice(size)) ? `0x${word.slice(0, size).toLowerCase()}` : undefined
  }
  const integer = /^(u?)int(\d*)$/.exec(type)
  if (!integer) return undefined
  const bits = Number(integer[2] || 256)
  const signed = integer[1] === ''
  return (word) => {
    const raw = BigInt(`0x${word}`)
    const value = signed ? BigInt.asIntN(256, raw) : raw
    return bits <= NUMBER_BITS ? Number(value) : value.toString()
  }
}
