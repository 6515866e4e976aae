import { getAddress, isAddress, type AbiEvent } from 'viem'
import { fieldFor } from '../sync/decode.ts'
import type { Sync } from '../sync/definition.ts'
import { ParseCode, ParseError } from './parse-error.ts'
import type { ParseObject } from './parse-object.ts'

// Classes filled by a contract-event sync, as Moralis v1's synced classes looked to v1 apps:
// snake_case names for where the event happened, lowercase addresses, an ABI input named `id`
// as `uid`, and each wide integer (a decimal string) also as `<name>_decimal`, a NumberDecimal.
// Queries and subscriptions name fields the same way and are translated back.

const RENAMED: Record<string, string> = {
  transactionHash: 'transaction_hash',
  transactionIndex: 'transaction_index',
  logIndex: 'log_index',
  blockNumber: 'block_number',
  blockHash: 'block_hash',
  blockTimestamp: 'block_timestamp',
}
const BACK = Object.fromEntries(Object.entries(RENAMED).map(([portico, v1]) => [v1, portico]))
/** Fields of Portico's rows that v1 rows did not have. */
const HIDDEN = new Set(['chainId', 'event'])

export interface SyncedView {
  toParse(object: ParseObject): ParseObject
  where(where: Record<string, unknown> | undefined): Record<string, unknown> | undefined
  order(order: string | undefined): string | undefined
  keys(keys: string[] | undefined): string[] | undefined
}

const ADDRESS = /^0x[0-9a-fA-F]{40}$/

function lowerAddresses(value: unknown): unknown {
  if (typeof value === 'string') return ADDRESS.test(value) ? value.toLowerCase() : value
  if (Array.isArray(value)) return value.map(lowerAddresses)
  return value
}

/** Addresses in a v1 query are lowercase; the rows keep them checksummed. */
function checksummed(value: unknown): unknown {
  if (typeof value === 'string')
    return ADDRESS.test(value) && isAddress(value, { strict: false }) ? getAddress(value) : value
  if (Array.isArray(value)) return value.map(checksummed)
  if (value !== null && typeof value === 'object' && !('__type' in value))
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, checksummed(v)]))
  return value
}

function fieldBack(name: string): string {
  if (name.endsWith('_decimal'))
    throw new ParseError(
      ParseCode.INVALID_QUERY,
      `Portico keeps ${name.slice(0, -8)} as an exact decimal string; query and sort on it, not on ${name}.`,
    )
  if (name === 'uid') return 'id'
  return BACK[name] ?? name
}

/** How `className` looks to v1 apps when one of `source.syncs` fills it (else undefined). */
export function syncedView(
  source: { syncs: readonly Sync[] },
  className: string,
): SyncedView | undefined {
  const syncs = source.syncs.filter((sync) => sync.className === className)
  if (syncs.length === 0) return undefined
  const events = new Map<string, AbiEvent>()
  for (const sync of syncs) for (const event of sync.events) events.set(event.name, event)

  return {
    toParse(object) {
      const event = events.get(String(object.event))
      const out: ParseObject = {}
      for (const [key, value] of Object.entries(object)) {
        if (HIDDEN.has(key)) continue
        out[key === 'id' ? 'uid' : (RENAMED[key] ?? key)] = lowerAddresses(value)
      }
      event?.inputs.forEach((input, i) => {
        const field = fieldFor(input.name, i)
        const value = object[field]
        if (/^u?int(\d*)$/.test(input.type) && typeof value === 'string')
          out[`${field === 'id' ? 'uid' : field}_decimal`] = {
            __type: 'NumberDecimal',
            value: { $numberDecimal: value },
          }
      })
      return out
    },
    where(where) {
      if (!where) return where
      const out: Record<string, unknown> = {}
      for (const [key, value] of Object.entries(where)) {
        if (key === '$or' || key === '$and') {
          out[key] = Array.isArray(value)
            ? value.map((part) => this.where(part as Record<string, unknown>))
            : value
          continue
        }
        out[fieldBack(key)] = checksummed(value)
      }
      return out
    },
    order(order) {
      return order
        ?.split(',')
        .map((term) => (term.startsWith('-') ? `-${fieldBack(term.slice(1))}` : fieldBack(term)))
        .join(',')
    },
    keys(keys) {
      return keys?.map(fieldBack)
    },
  }
}
