import { getAddress, isAddress, parseAbiItem, type Abi, type AbiEvent, type Address } from 'viem'
import { isValidName } from '../objects/names.ts'
import type { Document } from '../objects/wire.ts'

// A contract-event sync as a site declares it (`defineSync` in FUNCTIONS_MODULE), checked and
// completed with defaults once at start.

export interface SyncDefinition {
  /** Names the sync (its progress is kept under this name); letters, digits, `_` and `-`. */
  name: string
  chainId: number
  /** The contract, or several contracts emitting the same events (may be left out with `factory`). */
  address?: string | string[] | undefined
  /** The ABI, or just its events. */
  abi: Abi | readonly unknown[]
  /** Events to keep, by name; all events of the ABI when absent. */
  events?: string[] | undefined
  /** The class the rows are written into. */
  className: string
  /** First block to read. */
  startBlock: number | bigint
  /** Blocks, the event's own included, before a row is `confirmed` (default: 12 on chain 1, else 1). */
  confirmations?: number | undefined
  /** Whether everyone may read the rows (default true: on-chain data is public). */
  publicRead?: boolean | undefined
  /** How often to look for new blocks once caught up, in ms (default 2000). */
  pollMs?: number | undefined
  /** Most blocks per `eth_getLogs` (default 10000); ranges shrink when the node refuses them. */
  maxRange?: number | undefined
  /**
   * Contracts a factory creates: the sync also reads the events of every address that this
   * event of the factory names in `parameter` (from the block that names it on).
   */
  factory?: FactoryDefinition | undefined
}

export interface FactoryDefinition {
  /** The factory contract, or several. */
  address: string | string[]
  /** Its event naming a new contract: an ABI event, or its signature (`event Created(address child)`). */
  event: AbiEvent | string
  /** The event's input holding the new contract's address. */
  parameter: string
}

export interface Sync {
  name: string
  chainId: number
  addresses: Address[]
  events: AbiEvent[]
  className: string
  startBlock: bigint
  confirmations: number
  publicRead: boolean
  pollMs: number
  maxRange: number
  factory: { addresses: Address[]; event: AbiEvent; parameter: string } | undefined
  /** Keeps only the events it matches (a watch's filter); every event when absent. */
  keep?: ((data: Document) => boolean) | undefined
}

const NAME = /^[A-Za-z0-9_-]{1,64}$/

/** Checks a definition; throws an Error naming what is wrong. */
export function checkSync(definition: SyncDefinition, upstreamChains: ReadonlySet<number>): Sync {
  const where = `defineSync(${JSON.stringify(String(definition?.name ?? '')).slice(0, 80)})`
  const fail = (message: string): never => {
    throw new Error(`${where}: ${message}`)
  }
  if (!NAME.test(String(definition.name))) fail('"name" is 1-64 letters, digits, _ or -.')
  if (!Number.isInteger(definition.chainId) || definition.chainId <= 0)
    fail('"chainId" is a chain id.')
  if (!upstreamChains.has(definition.chainId))
    fail(
      `no node is configured for chain ${definition.chainId}: set RPC_URL_${definition.chainId}.`,
    )
  const factory =
    definition.factory === undefined ? undefined : checkFactory(definition.factory, fail)
  const addresses = definition.address === undefined && factory ? [] : [definition.address].flat()
  if (
    (addresses.length === 0 && !factory) ||
    addresses.some((a) => typeof a !== 'string' || !isAddress(a, { strict: false }))
  )
    fail('"address" is a contract address or a list of them.')
  if (!isValidName(definition.className))
    fail('"className" starts with a letter; letters, digits and _.')
  const abiEvents = (Array.isArray(definition.abi) ? definition.abi : []).filter(
    (item): item is AbiEvent => (item as { type?: unknown })?.type === 'event',
  )
  const wanted = definition.events ?? abiEvents.map((event) => event.name)
  const events = abiEvents.filter((event) => wanted.includes(event.name))
  const missing = wanted.filter((name) => !abiEvents.some((event) => event.name === name))
  if (missing.length) fail(`the ABI has no event ${missing.join(', ')}.`)
  if (events.length === 0) fail('the ABI names no event to keep.')
  let startBlock: bigint
  try {
    startBlock = BigInt(definition.startBlock)
  } catch {
    startBlock = -1n
  }
  if (startBlock < 0n) fail('"startBlock" is a block number.')
  const confirmations = definition.confirmations ?? (definition.chainId === 1 ? 12 : 1)
  if (!Number.isInteger(confirmations) || confirmations < 1 || confirmations > 1000)
    fail('"confirmations" is a whole number from 1 to 1000.')
  const pollMs = definition.pollMs ?? 2_000
  if (!Number.isInteger(pollMs) || pollMs < 10) fail('"pollMs" is at least 10.')
  const maxRange = definition.maxRange ?? 10_000
  if (!Number.isInteger(maxRange) || maxRange < 1) fail('"maxRange" is a positive whole number.')
  return {
    name: definition.name,
    chainId: definition.chainId,
    addresses: addresses.map((a) => getAddress(a as string)),
    events,
    className: definition.className,
    startBlock,
    confirmations,
    publicRead: definition.publicRead ?? true,
    pollMs,
    maxRange,
    factory,
  }
}

function checkFactory(
  definition: FactoryDefinition,
  fail: (message: string) => never,
): NonNullable<Sync['factory']> {
  const addresses = [definition?.address].flat()
  if (
    addresses.length === 0 ||
    addresses.some((a) => typeof a !== 'string' || !isAddress(a, { strict: false }))
  )
    fail('"factory.address" is a contract address or a list of them.')
  let event: AbiEvent | undefined
  try {
    const item =
      typeof definition.event === 'string' ? parseAbiItem(definition.event) : definition.event
    if ((item as { type?: unknown })?.type === 'event') event = item as AbiEvent
  } catch {
    // Reported below.
  }
  if (!event) return fail('"factory.event" is an ABI event or its signature.')
  const input = event.inputs.find((candidate) => candidate.name === definition.parameter)
  if (!input || input.type !== 'address')
    fail(`"factory.parameter" names an address input of ${event.name}.`)
  return {
    addresses: addresses.map((a) => getAddress(a as string)),
    event,
    parameter: definition.parameter,
  }
}
