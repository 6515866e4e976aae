/** Defaults of the node connection (docs/architecture.md, "Constants"); each is overridable in `connectNode`. */
export const nodeDefaults = {
  /** Web request time-out (ms). */
  timeout: 120_000,
  /** Retries of a throttled (HTTP 429) answer. */
  retryCount: 12,
  /** Base backoff between throttle retries when the node sends no `Retry-After` (ms). */
  retryDelay: 150,
  /** Block polling interval (ms). */
  pollingInterval: 4_000,
  /** Where the Portico server's RPC gateway lives; same origin by default. */
  gatewayUrl: '/api/rpc',
  /** Header that carries `speedyNodeApiKey` to the gateway. */
  apiKeyHeader: 'x-api-key',
  /** Calls per batch when `batch: true` goes through the gateway (the server's default cap). */
  gatewayBatchSize: 100,
} as const

/**
 * The gateway URL for one chain. `base` is a gateway's base URL (`nodeDefaults.gatewayUrl` on the
 * same origin, or `https://site/api/rpc`), with or without a trailing slash.
 */
export function gatewayChainUrl(base: string, chainId: number): string {
  return `${base.replace(/\/+$/, '')}/${chainId}`
}
