import crypto from 'node:crypto'
import { HttpError } from '../errors.ts'
import { ANY_OWNER } from '../objects/access.ts'
import type { ClassRules } from '../objects/class-rules.ts'
import type { Document } from '../objects/wire.ts'

// Moralis v1's address-sync classes, filled by the address index: a chain prefix (`Eth`, `Bsc`,
// `Polygon`, `Avax`, `Ftm`, as v1 named them; testnets share their mainnet's, local devchains
// are `Eth`) and a kind. A chain v1 did not know is `Chain<chainId>` (`Chain8453TokenTransfers`).
// Their rows are the chain's own: only the index writes them (in the transaction that writes
// its tables), the console besides; every other create, change or delete, on any surface, is
// refused by the store.

export const KINDS = [
  'Transactions',
  'TokenTransfers',
  'NFTTransfers',
  'TokenBalance',
  'NFTOwners',
] as const
export type Kind = (typeof KINDS)[number]

const PREFIXES: [string, number[]][] = [
  ['Eth', [1, 3, 4, 5, 42, 11155111, 17000, 1337, 31337]],
  ['Bsc', [56, 97]],
  ['Polygon', [137, 80001, 80002]],
  ['Avax', [43114, 43113]],
  ['Ftm', [250, 4002]],
]

/** The class-name prefix of a chain. */
export function chainPrefix(chainId: number): string {
  for (const [prefix, ids] of PREFIXES) if (ids.includes(chainId)) return prefix
  return `Chain${chainId}`
}

export function className(chainId: number, kind: Kind): string {
  return chainPrefix(chainId) + kind
}

/** Decimal-string fields of each kind, compared and sorted as numbers by queries. */
const INTEGERS: Record<Kind, string[]> = {
  Transactions: ['value', 'gas_price', 'gas', 'receipt_gas_used', 'receipt_cumulative_gas_used'],
  TokenTransfers: ['value'],
  NFTTransfers: ['token_id', 'amount'],
  TokenBalance: ['balance'],
  NFTOwners: ['token_id', 'amount'],
}

/** The store's rules for the classes of the indexed chains. */
export function addressClassRules(chainIds: Iterable<number>): ClassRules {
  const kinds = new Map<string, Kind>()
  for (const chainId of chainIds)
    for (const kind of KINDS) kinds.set(className(chainId, kind), kind)
  const none: ReadonlySet<string> = new Set()
  const integers = new Map([...kinds].map(([name, kind]) => [name, new Set(INTEGERS[kind])]))
  return {
    assertWritable(name, writer) {
      if (!kinds.has(name) || writer === ANY_OWNER) return
      throw new HttpError(
        403,
        'synced_class',
        `${name} is filled by the address index alone: its rows are the chain's and cannot be created, changed or deleted here.`,
      )
    },
    // No field of theirs is the app's: a change is refused whole by `assertWritable`.
    keptFields: () => undefined,
    integerFields: (name) => integers.get(name) ?? none,
  }
}

/** Both rules: a class refused by either is refused. */
export function bothRules(a: ClassRules, b: ClassRules): ClassRules {
  return {
    assertWritable(name, writer) {
      a.assertWritable(name, writer)
      b.assertWritable(name, writer)
    },
    keptFields: (name) => a.keptFields(name) ?? b.keptFields(name),
    integerFields(name) {
      const first = a.integerFields(name)
      return first.size ? first : b.integerFields(name)
    },
  }
}

/** The id of a class row: the same for the same chain fact, so it is never written twice. */
export function classRowId(chainId: number, kind: Kind, key: string): string {
  return crypto
    .createHash('sha256')
    .update(`${chainId}:${kind}:${key}`)
    .digest('base64url')
    .slice(0, 22)
}

export const dateField = (at: Date): Document => ({ __type: 'Date', iso: at.toISOString() })
