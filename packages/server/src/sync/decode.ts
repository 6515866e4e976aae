import crypto from 'node:crypto'
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
  return sha256(`${chainId}:${transactionHash.toLowerCase()}:${logIndex}`).slice(0, 22)
}

// The one-call hash (Node 20.12 and later) costs a third of a hash object's three calls.
const oneShot = (crypto as { hash?: (algorithm: string, data: string, encoding: string) => string })
  .hash
const sha256 = (text: string): string =>
  oneShot
    ? oneShot('sha256', text, 'base64url')
    : crypto.createHash('sha256').update(text).digest('base64url')

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
  readonly #bySelector = new Map<string, WordEvent>()
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
        fields: event.inputs.map((input, i) => fieldFor(input.name, i)),
        indexed: event.inputs.map((input) => input.indexed === true),
        topics: 1 + event.inputs.filter((input) => input.indexed).length,
        dataLength: 2 + 64 * event.inputs.filter((input) => !input.indexed).length,
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
    let fields: readonly string[]
    let values: unknown[] | undefined
    if (known?.readers) {
      event = known.event
      fields = known.fields
      values = readWords(known, log)
    } else {
      const decoded = this.#general(log)
      if (!decoded) return undefined
      event = decoded.event
      fields = decoded.event.inputs.map((input, i) => fieldFor(input.name, i))
      values = decoded.values
    }
    if (!values) return undefined
    const data: Document = {}
    for (let i = 0; i < fields.length; i++) data[fields[i]!] = values[i]
    const blockNumber = BigInt(log.blockNumber)
    const timestamp = log.blockTimestamp === undefined ? undefined : BigInt(log.blockTimestamp)
    const logIndex = Number(log.logIndex)
    const where: Record<SyncedRowField, unknown> = {
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
    }
    for (const key in where) data[key] = where[key as SyncedRowField]
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

/** An event's decoding plan, made once: its fields, where each input is, and how to read it. */
interface WordEvent {
  event: AbiEvent
  fields: readonly string[]
  indexed: readonly boolean[]
  /** Topics and data characters a log of the event has (strictly). */
  topics: number
  dataLength: number
  /** One per input when each is one word wide; undefined otherwise (the general decoder). */
  readers: WordReader[] | undefined
}

const HEX = /^0x[0-9a-fA-F]*$/
const HEX_WORD = /^0x[0-9a-fA-F]{64}$/

/** The values of an event whose inputs are one word each: indexed ones from topics, others from data. */
function readWords(plan: WordEvent, log: RawLog): unknown[] | undefined {
  // As strict decoding: exactly the topics and data words the event has, all hexadecimal.
  if (log.topics.length !== plan.topics || log.data.length !== plan.dataLength) return undefined
  if (plan.dataLength > 2 && !HEX.test(log.data)) return undefined
  const readers = plan.readers!
  let topic = 1
  let at = 2
  const values: unknown[] = new Array(readers.length)
  for (let i = 0; i < readers.length; i++) {
    let text: string
    if (plan.indexed[i]) {
      const raw = log.topics[topic++]!
      if (!HEX_WORD.test(raw)) return undefined
      text = raw.slice(2)
    } else {
      text = log.data.slice(at, at + 64)
      at += 64
    }
    const value = readers[i]!(text)
    if (value === undefined) return undefined
    values[i] = value
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
