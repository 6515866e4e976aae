import { createHash } from 'node:crypto'
import { syncedRowFields, type SyncedRowField } from '@portico/sdk/wire'
import { decodeEventLog, getAddress, type AbiEvent, type AbiParameter, type Log } from 'viem'
import { isValidName, RESERVED_FIELDS } from '../objects/names.ts'
import type { Document } from '../objects/wire.ts'

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

export interface LogPlace {
  chainId: number
  blockTimestamp: Date
  confirmed: boolean
}

/** The id of a log's row: the same log always gets the same id (chain, transaction, index). */
export function rowId(chainId: number, transactionHash: string, logIndex: number): string {
  return createHash('sha256')
    .update(`${chainId}:${transactionHash.toLowerCase()}:${logIndex}`)
    .digest('base64url')
    .slice(0, 22)
}

/** Decodes a log of one of `events`; undefined for a log that none of them describes. */
export function rowOf(
  events: AbiEvent[],
  log: Log,
  place: LogPlace,
): { id: string; data: Document } | undefined {
  // Logs read with `getLogs({ events })` come decoded; others are decoded here.
  let decoded: { eventName: string; args: unknown }
  const given = log as Log & { eventName?: string; args?: unknown }
  if (given.eventName !== undefined && given.args !== undefined) {
    decoded = { eventName: given.eventName, args: given.args }
  } else {
    try {
      decoded = decodeEventLog({
        abi: events,
        data: log.data,
        topics: log.topics,
        strict: true,
      }) as never
    } catch {
      return undefined
    }
  }
  const event = events.find((e) => e.name === decoded.eventName)!
  const data: Document = {}
  event.inputs.forEach((input, i) => {
    const args = decoded.args as Record<string, unknown> | unknown[]
    const value = Array.isArray(args) ? args[i] : args[input.name ?? '']
    data[fieldFor(input.name, i)] = valueOf(input, value)
  })
  Object.assign(data, {
    event: event.name,
    chainId: place.chainId,
    address: getAddress(log.address),
    blockNumber: Number(log.blockNumber),
    blockHash: log.blockHash,
    blockTimestamp: { __type: 'Date', iso: place.blockTimestamp.toISOString() },
    transactionHash: log.transactionHash,
    transactionIndex: Number(log.transactionIndex),
    logIndex: Number(log.logIndex),
    confirmed: place.confirmed,
  } satisfies Record<SyncedRowField, unknown>)
  return { id: rowId(place.chainId, log.transactionHash!, Number(log.logIndex)), data }
}
