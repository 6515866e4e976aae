import { positiveInt, type Env } from './values.ts'
/** RPC gateway settings, read from the environment by `loadConfig`. */
export interface RpcGatewayConfig {
  /** Upstream node URLs per chain id, tried in order. Never sent to clients or logged. */
  upstreams: Map<number, string[]>
  /** Most calls accepted in one JSON-RPC batch. */
  maxBatch: number
  /** Requests per minute allowed per API key or signed-in user. */
  rateLimitPerKey: number
  /** Requests per minute allowed per caller IP address. */
  rateLimitPerIp: number
  /** Deadline of one upstream attempt, from sending to the last byte of the answer (ms). */
  timeoutMs: number
  /** Most calls sent upstream in one coalesced JSON-RPC batch; 1 sends every call alone. */
  upstreamBatch: number
  /** Blocks on top of a transaction's block before its receipt is cached for good. */
  finalityBlocks: number
}

export const rpcConfigDefaults = {
  // viem's batch transport sends up to 1,000 calls at once; they go upstream in smaller batches.
  maxBatch: 1_000,
  rateLimitPerKey: 6_000,
  rateLimitPerIp: 12_000,
  timeoutMs: 30_000,
  upstreamBatch: 20,
  // Ethereum finalises after two epochs of 32 slots; a reorg deeper than that has not happened.
  finalityBlocks: 64,
} as const

/**
 * Upstreams come from `RPC_URL_<chainId>` variables, each a comma-separated list of http(s) URLs
 * tried in order, e.g. `RPC_URL_1=https://a.example/KEY,https://b.example`. Problems name the
 * variable and the position, never the URL, because URLs often embed provider keys.
 */
export function loadRpcConfig(env: Env, problems: string[]): RpcGatewayConfig {
  const upstreams = new Map<number, string[]>()
  for (const [name, raw] of Object.entries(env)) {
    const match = /^RPC_URL_(.+)$/.exec(name)
    if (!match || raw === undefined || raw.trim() === '') continue
    const chainId = Number(match[1])
    if (!/^[1-9][0-9]*$/.test(match[1]!) || !Number.isSafeInteger(chainId)) {
      problems.push(`${name}: the part after RPC_URL_ must be a decimal chain id`)
      continue
    }
    const urls = raw.split(',').map((url) => url.trim())
    urls.forEach((url, index) => {
      let protocol = ''
      try {
        protocol = new URL(url).protocol
      } catch {
        // reported below
      }
      if (protocol !== 'http:' && protocol !== 'https:') {
        problems.push(`${name}: entry ${index + 1} is not an http(s) URL`)
      }
    })
    upstreams.set(chainId, urls)
  }
  return {
    upstreams,
    maxBatch: positiveInt(env, 'RPC_MAX_BATCH', rpcConfigDefaults.maxBatch, problems),
    rateLimitPerKey: positiveInt(
      env,
      'RPC_RATE_LIMIT_PER_KEY',
      rpcConfigDefaults.rateLimitPerKey,
      problems,
    ),
    rateLimitPerIp: positiveInt(
      env,
      'RPC_RATE_LIMIT_PER_IP',
      rpcConfigDefaults.rateLimitPerIp,
      problems,
    ),
    timeoutMs: positiveInt(env, 'RPC_TIMEOUT_MS', rpcConfigDefaults.timeoutMs, problems),
    upstreamBatch: positiveInt(
      env,
      'RPC_UPSTREAM_BATCH',
      rpcConfigDefaults.upstreamBatch,
      problems,
    ),
    finalityBlocks: positiveInt(
      env,
      'RPC_FINALITY_BLOCKS',
      rpcConfigDefaults.finalityBlocks,
      problems,
    ),
  }
}
