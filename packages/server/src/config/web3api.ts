import { positiveInt, type Env } from './values.ts'

/** Where token prices are read on one chain: a Uniswap-v2-style factory and the tokens priced against. */
export interface DexSettings {
  /** The factory whose `getPair(a, b)` finds a pair (lowercase address). */
  factory: string
  /** The token every price is first read in: the chain's wrapped native token (lowercase). */
  quote: string
  /** A US-dollar stablecoin paired with `quote`, for `usdPrice`; undefined → no USD price. */
  usd: string | undefined
}

/** Moralis v1's Web3 API, answered from the chains' own nodes (`WEB3API_*` variables). */
export interface Web3ApiConfig {
  /** v1 chain names (and hex ids) pointed at another configured chain (WEB3API_CHAINS). */
  chainAliases: Map<string, number>
  /** Token prices per chain id (WEB3API_DEX_<chainId>). */
  dex: Map<number, DexSettings>
  /** The ENS registry per chain id (WEB3API_ENS_<chainId>). */
  ens: Map<number, string>
  /** Gateway `ipfs://` token URIs are read through, ending in `/` (WEB3API_IPFS_GATEWAY). */
  ipfsGateway: string | undefined
  /**
   * Whether token URIs may point at loopback and private addresses (WEB3API_METADATA_PRIVATE_HOSTS):
   * true, false (the default), or only the listed `host:port` origins.
   */
  metadataPrivateHosts: boolean | string[]
  /** Largest metadata document read (WEB3API_METADATA_MAX_BYTES, 256 KB). */
  metadataMaxBytes: number
  /** Longest wait for one metadata document (WEB3API_METADATA_TIMEOUT_MS, 10 s). */
  metadataTimeoutMs: number
  /** Web3 API calls per minute per client address (WEB3API_RATE_LIMIT_PER_IP, 1,200). */
  rateLimitPerIp: number
}

const ADDRESS = /^0x[0-9a-fA-F]{40}$/

export function loadWeb3ApiConfig(env: Env, problems: string[]): Web3ApiConfig {
  const chainAliases = new Map<string, number>()
  for (const entry of (env.WEB3API_CHAINS ?? '').split(',')) {
    if (entry.trim() === '') continue
    const match = /^\s*([^:=]+?)\s*[:=]\s*([1-9][0-9]*)\s*$/.exec(entry)
    if (!match) {
      problems.push(
        `WEB3API_CHAINS is a comma-separated list of <v1 chain name>:<chain id>, e.g. eth:31337 (not "${entry.trim()}")`,
      )
      continue
    }
    chainAliases.set(match[1]!.toLowerCase(), Number(match[2]))
  }
  const dex = new Map<number, DexSettings>()
  const ens = new Map<number, string>()
  for (const [name, raw] of Object.entries(env)) {
    const match = /^WEB3API_(DEX|ENS)_(.+)$/.exec(name)
    if (!match || raw === undefined || raw.trim() === '') continue
    if (!/^[1-9][0-9]*$/.test(match[2]!)) {
      problems.push(`${name}: the part after WEB3API_${match[1]}_ must be a decimal chain id`)
      continue
    }
    const chainId = Number(match[2])
    const parts = raw.split(',').map((part) => part.trim())
    if (match[1] === 'ENS') {
      if (parts.length !== 1 || !ADDRESS.test(parts[0]!))
        problems.push(`${name} is the address of the chain's ENS registry`)
      else ens.set(chainId, parts[0]!.toLowerCase())
      continue
    }
    if (parts.length < 2 || parts.length > 3 || !parts.every((part) => ADDRESS.test(part))) {
      problems.push(
        `${name} is <factory>,<wrapped native token>[,<USD stablecoin>]: addresses, comma-separated`,
      )
      continue
    }
    dex.set(chainId, {
      factory: parts[0]!.toLowerCase(),
      quote: parts[1]!.toLowerCase(),
      usd: parts[2]?.toLowerCase(),
    })
  }
  let ipfsGateway = env.WEB3API_IPFS_GATEWAY?.trim() || undefined
  if (ipfsGateway !== undefined) {
    if (!/^https?:\/\//.test(ipfsGateway))
      problems.push('WEB3API_IPFS_GATEWAY is an http(s) URL, e.g. https://ipfs.example/ipfs/')
    if (!ipfsGateway.endsWith('/')) ipfsGateway += '/'
  }
  const privateHosts = (env.WEB3API_METADATA_PRIVATE_HOSTS ?? 'false').trim()
  const origins = privateHosts.split(',').map((entry) => entry.trim().toLowerCase())
  if (
    privateHosts !== 'true' &&
    privateHosts !== 'false' &&
    !origins.every((origin) => /^[a-z0-9.-]+:[0-9]{1,5}$|^\[[0-9a-f:.]+\]:[0-9]{1,5}$/.test(origin))
  )
    problems.push(
      `WEB3API_METADATA_PRIVATE_HOSTS is true, false, or a comma-separated list of host:port (got "${privateHosts}")`,
    )
  return {
    chainAliases,
    dex,
    ens,
    ipfsGateway,
    metadataPrivateHosts:
      privateHosts === 'true' ? true : privateHosts === 'false' ? false : origins,
    metadataMaxBytes: positiveInt(env, 'WEB3API_METADATA_MAX_BYTES', 256 * 1024, problems),
    metadataTimeoutMs: positiveInt(env, 'WEB3API_METADATA_TIMEOUT_MS', 10_000, problems),
    rateLimitPerIp: positiveInt(env, 'WEB3API_RATE_LIMIT_PER_IP', 1_200, problems),
  }
}
