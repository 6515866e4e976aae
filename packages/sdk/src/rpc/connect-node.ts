import {
  createPublicClient,
  defineChain,
  type Chain,
  type PublicClient,
  type Transport,
} from 'viem'
import { checkUrl } from '../errors/config.ts'
import { ChainUrlMissingError, NodeConfigMissingError } from '../errors/rpc.ts'
import { warnIfKeyInBrowser } from './browser-key-warning.ts'
import { sdkVersion } from '../sdk-version.ts'
import { gatewayChainUrl, nodeDefaults } from './defaults.ts'
import type { FetchFn } from './fetch.ts'
import { nodeTransport, type NodeTransportOptions } from './transport.ts'

/** A chain id as a number or a `0x` hex string (`1`, `"0x1"`). */
export type ChainIdInput = number | `0x${string}`

export interface ConnectNodeParameters {
  /** The chain the returned client talks to. */
  chainId: ChainIdInput
  /** Node URLs per chain id (`{ 1: 'https://…' }` or several, tried in order: `{ 1: [a, b] }`). */
  urls?: Partial<Record<number | string, string | readonly string[]>> | undefined
  /** Key for the Portico server's RPC gateway, used for every chain without an entry in `urls`. */
  speedyNodeApiKey?: string | undefined
  /** Base URL of the gateway; `/api/rpc` on the same origin by default (absolute in Node). */
  gatewayUrl?: string | undefined
  /** viem chain definitions to use (names, contracts, block time); a minimal one otherwise. */
  chains?: readonly Chain[] | undefined
  /** Web request time-out per node (ms). Default 120000. */
  timeout?: number | undefined
  /** Retries of throttled (HTTP 429) answers, honouring `Retry-After`. Default 12. */
  retryCount?: number | undefined
  /** Base backoff of throttle retries without `Retry-After` (ms). Default 150. */
  retryDelay?: number | undefined
  /** Block polling interval (ms). Default 4000. */
  pollingInterval?: number | undefined
  /** viem JSON-RPC batching. Off by default. */
  batch?: NodeTransportOptions['batch']
  /** `fetch` override (tests, custom agents). */
  fetch?: FetchFn | undefined
  /** Where the one-time "key in a browser" warning goes; `console.warn` by default. */
  onWarning?: ((message: string) => void) | undefined
}

/** A viem public client for one chain, plus `switchChain` to get the client of another one. */
export type NodeClient = PublicClient<Transport, Chain> & {
  /** Returns the client for another chain of the same connection (cached per chain). */
  switchChain(chainId: ChainIdInput): NodeClient
}

function toChainId(value: ChainIdInput | string): number {
  const id =
    typeof value === 'string' ? Number(value.startsWith('0x') ? BigInt(value) : value) : value
  if (!Number.isSafeInteger(id) || id <= 0) throw new ChainUrlMissingError({ chainId: Number(id) })
  return id
}

function normalizeUrls(urls: ConnectNodeParameters['urls']): Map<number, string[]> {
  const byChain = new Map<number, string[]>()
  for (const [key, value] of Object.entries(urls ?? {})) {
    const list = (typeof value === 'string' ? [value] : [...(value ?? [])]).filter(Boolean)
    if (list.length) byChain.set(toChainId(key), list)
  }
  return byChain
}

function minimalChain(id: number, urls: string[]): Chain {
  return defineChain({
    id,
    name: `Chain ${id}`,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: urls } },
  })
}

/**
 * Connects to blockchain nodes: direct node URLs per chain, or the Portico gateway with
 * `speedyNodeApiKey`. Several URLs fail over in order; answers are checked
 * strictly; node failures surface as the catalogue errors, JSON-RPC errors as viem's.
 *
 * @example
 * const client = connectNode({ chainId: 1, urls: { 1: ['https://a.example', 'https://b.example'] } })
 * await client.getBlockNumber()
 * const sepolia = client.switchChain(11155111)
 */
export function connectNode(parameters: ConnectNodeParameters): NodeClient {
  const urlsByChain = normalizeUrls(parameters.urls)
  const apiKey = parameters.speedyNodeApiKey || undefined
  if (!urlsByChain.size && !apiKey) throw new NodeConfigMissingError()
  if (apiKey) warnIfKeyInBrowser(parameters.onWarning)
  const gatewayUrl = parameters.gatewayUrl ?? nodeDefaults.gatewayUrl
  for (const list of urlsByChain.values())
    for (const url of list) checkUrl('node URL', url, 'https://node.example')
  if (apiKey) checkUrl('gatewayUrl', gatewayUrl, 'https://app.example/api/rpc')
  const clients = new Map<number, NodeClient>()

  const clientFor = (chainIdInput: ChainIdInput): NodeClient => {
    const chainId = toChainId(chainIdInput)
    const cached = clients.get(chainId)
    if (cached) return cached
    const direct = urlsByChain.get(chainId)
    if (!direct && !apiKey) throw new ChainUrlMissingError({ chainId })
    const urls = direct ?? [gatewayChainUrl(gatewayUrl, chainId)]
    const transport = nodeTransport(urls, {
      timeout: parameters.timeout ?? nodeDefaults.timeout,
      throttleRetryCount: parameters.retryCount ?? nodeDefaults.retryCount,
      throttleRetryDelay: parameters.retryDelay ?? nodeDefaults.retryDelay,
      // The client version goes to Portico's own gateway only: an extra header to a third-party
      // node would make browsers send a CORS preflight that many providers refuse.
      headers: direct
        ? undefined
        : { [nodeDefaults.apiKeyHeader]: apiKey!, 'x-portico-client': `sdk/${sdkVersion}` },
      fetch: parameters.fetch,
      batch:
        parameters.batch === true && !direct
          ? { batchSize: nodeDefaults.gatewayBatchSize }
          : parameters.batch,
    })
    const chain = parameters.chains?.find((c) => c.id === chainId) ?? minimalChain(chainId, urls)
    const client = createPublicClient({
      chain,
      transport,
      pollingInterval: parameters.pollingInterval ?? nodeDefaults.pollingInterval,
    }).extend(() => ({ switchChain: clientFor })) as unknown as NodeClient
    clients.set(chainId, client)
    return client
  }

  return clientFor(parameters.chainId)
}
