import { getAddress, isAddress, type AbiEvent } from 'viem'
import { fieldFor, integerFieldsOf } from '../sync/decode.ts'
import type { Sync } from '../sync/definition.ts'
import { RENAMED } from '../sync/v1-names.ts'
import { ParseCode, ParseError } from './parse-error.ts'
import type { ParseObject } from '../objects/parse-shape.ts'

// Classes filled by a contract-event sync, as Moralis v1's synced classes looked to v1 apps:
// snake_case names for where the event happened, lowercase addresses, an ABI input named `id`
// as `uid`, and each wide integer (a decimal string) also as `<name>_decimal`, a NumberDecimal.
// Queries and subscriptions name fields the same way and are translated back; `<name>_decimal`
// is its integer field, which the store compares and sorts as a number (as is the string field
// itself), and a NumberDecimal in a query is its decimal text.

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

/**
 * A v1 query's value as the rows hold it: addresses checksummed (v1 sends them lowercase), a
 * NumberDecimal as its decimal text.
 */
function stored(value: unknown): unknown {
  if (typeof value === 'string')
    return ADDRESS.test(value) && isAddress(value, { strict: false }) ? getAddress(value) : value
  if (Array.isArray(value)) return value.map(stored)
  if (value === null || typeof value !== 'object') return value
  const decimal = decimalText(value)
  if (decimal !== undefined) return decimal
  if ('__type' in value) return value
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, stored(v)]))
}

/** The text of `{"__type":"NumberDecimal","value":{"$numberDecimal":"…"}}` (or its inner part). */
function decimalText(value: object): string | undefined {
  const inner =
    (value as { __type?: unknown }).__type === 'NumberDecimal'
      ? (value as { value?: unknown }).value
      : value
  const text = (inner as { $numberDecimal?: unknown } | null)?.$numberDecimal
  return typeof text === 'string' ? text : undefined
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
  const integers = integerFieldsOf([...events.values()])
  const fieldBack = (name: string): string => {
    if (name.endsWith('_decimal')) {
      const base = name.slice(0, -'_decimal'.length)
      const field = base === 'uid' ? 'id' : base
      if (integers.has(field)) return field
      throw new ParseError(
        ParseCode.INVALID_QUERY,
        `${name} is not a field of ${className}: _decimal goes with its integer fields.`,
      )
    }
    if (name === 'uid') return 'id'
    return BACK[name] ?? name
  }

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
      // `value` and `value_decimal` are one field: a second constraint on it joins the first.
      const more: Record<string, unknown>[] = []
      for (const [key, value] of Object.entries(where)) {
        if (key === '$or' || key === '$and') {
          out[key] = Array.isArray(value)
            ? value.map((part) => this.where(part as Record<string, unknown>))
            : value
          continue
        }
        const field = fieldBack(key)
        if (Object.hasOwn(out, field)) more.push({ [field]: stored(value) })
        else out[field] = stored(value)
      }
      if (more.length)
        out.$and = [...(Array.isArray(out.$and) ? (out.$and as unknown[]) : []), ...more]
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
