import type { PublicClient } from 'viem'
import type { Web3ApiConfig } from '../config/web3api.ts'
import type { ChainNodes } from './node.ts'
import type { NftMetadata } from './metadata.ts'

/** What one endpoint is given: the call's parameters and the chain it asked for, read. */
export interface EndpointContext {
  chainId: number
  /** The chain's node, through the gateway. */
  client: PublicClient
  nodes: ChainNodes
  config: Web3ApiConfig
  metadata: NftMetadata
  params: Record<string, unknown>
}

export type Endpoint = (context: EndpointContext) => Promise<unknown>

/** A block's time in v1's form: ISO text. */
export const isoTime = (seconds: bigint) => new Date(Number(seconds) * 1000).toISOString()

/** Values as v1 answered them: whole numbers as decimal text, nested arrays and records alike. */
export function plain(value: unknown): unknown {
  if (typeof value === 'bigint') return value.toString()
  if (Array.isArray(value)) return value.map(plain)
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {}
    for (const [key, item] of Object.entries(value)) out[key] = plain(item)
    return out
  }
  return value
}
