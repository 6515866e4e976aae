import { positiveInt, type Env } from './values.ts'

// The address index's settings, read from the environment by `loadConfig`. The index runs on
// the chains listed in ADDRESS_INDEX_CHAINS (each needs its RPC_URL_<chainId>); it is off when
// the list is empty.

/** How native transactions of an address are found. */
export type NativeMode = 'auto' | 'ots' | 'blocks' | 'off'

export interface IndexedChainSettings {
  chainId: number
  /** The first block read for every address (ADDRESS_INDEX_START_BLOCK_<chainId>, default 0). */
  startBlock: bigint
  /** Blocks, the transfer's own included, before a row is confirmed (v1's count by default). */
  confirmations: number
  /** Every transfer of every address (a local or app chain), not only the indexed addresses'. */
  everyAddress: boolean
  native: NativeMode
}

export interface AddressIndexConfig {
  chains: Map<number, IndexedChainSettings>
  /** Addresses one caller may start indexing by asking about them (ADDRESS_INDEX_ASKED_PER_CALLER). */
  askedPerCaller: number
  /** Whether everyone may read the v1 address classes' rows (ADDRESS_INDEX_PUBLIC_READ, default true). */
  publicRead: boolean
  /** How often to look for new blocks once caught up, in ms (ADDRESS_INDEX_POLL_MS). */
  pollMs: number
}

/** Moralis v1's confirmations per chain; local devchains and unknown chains 1. */
export function v1Confirmations(chainId: number): number {
  if (chainId === 1 || chainId === 3 || chainId === 4 || chainId === 5 || chainId === 42) return 12
  if (chainId === 11155111 || chainId === 17000) return 12
  if (chainId === 56 || chainId === 97) return 18
  if ([137, 80001, 80002, 43114, 43113, 250, 4002].includes(chainId)) return 100
  return 1
}

const CHAIN_ID = /^[1-9][0-9]{0,15}$/

export function loadAddressIndexConfig(env: Env, problems: string[]): AddressIndexConfig {
  const chains = new Map<number, IndexedChainSettings>()
  for (const part of (env.ADDRESS_INDEX_CHAINS ?? '').split(',')) {
    const raw = part.trim()
    if (!raw) continue
    if (!CHAIN_ID.test(raw)) {
      problems.push(`ADDRESS_INDEX_CHAINS lists chain ids (got "${raw.slice(0, 40)}")`)
      continue
    }
    const chainId = Number(raw)
    const start = env[`ADDRESS_INDEX_START_BLOCK_${chainId}`]?.trim() || '0'
    if (!/^[0-9]{1,20}$/.test(start))
      problems.push(`ADDRESS_INDEX_START_BLOCK_${chainId} is a block number`)
    const confirmations = positiveInt(
      env,
      `ADDRESS_INDEX_CONFIRMATIONS_${chainId}`,
      v1Confirmations(chainId),
      problems,
    )
    if (confirmations > 1000)
      problems.push(`ADDRESS_INDEX_CONFIRMATIONS_${chainId} is at most 1000`)
    const every = env[`ADDRESS_INDEX_EVERY_ADDRESS_${chainId}`]?.trim() || 'false'
    if (every !== 'true' && every !== 'false')
      problems.push(`ADDRESS_INDEX_EVERY_ADDRESS_${chainId} is true or false`)
    const native = (env[`ADDRESS_INDEX_NATIVE_${chainId}`]?.trim() || 'auto') as NativeMode
    if (!['auto', 'ots', 'blocks', 'off'].includes(native))
      problems.push(`ADDRESS_INDEX_NATIVE_${chainId} is auto, ots, blocks or off`)
    chains.set(chainId, {
      chainId,
      startBlock: /^[0-9]{1,20}$/.test(start) ? BigInt(start) : 0n,
      confirmations: Math.min(confirmations, 1000),
      everyAddress: every === 'true',
      native: ['auto', 'ots', 'blocks', 'off'].includes(native) ? native : 'auto',
    })
  }
  const publicRead = env.ADDRESS_INDEX_PUBLIC_READ?.trim() || 'true'
  if (publicRead !== 'true' && publicRead !== 'false')
    problems.push('ADDRESS_INDEX_PUBLIC_READ is true or false')
  return {
    chains,
    askedPerCaller: positiveInt(env, 'ADDRESS_INDEX_ASKED_PER_CALLER', 5, problems),
    publicRead: publicRead !== 'false',
    pollMs: positiveInt(env, 'ADDRESS_INDEX_POLL_MS', 2_000, problems),
  }
}
