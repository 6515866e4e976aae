import type { Env } from './values.ts'

/** Contract-sync settings, read from the environment by `loadConfig`. */
export interface SyncConfig {
  /**
   * A WebSocket URL per chain (`RPC_WS_URL_<chainId>`): the syncs of that chain follow its new
   * heads by subscription (`eth_subscribe` to `newHeads`) instead of asking every `pollMs`.
   * Never sent to clients or logged.
   */
  headUrls: Map<number, string>
  /**
   * The configured chain that Moralis v1's chain "1337" (its name for any local development
   * chain) means in `watchContractEvent` (`COMPAT_LOCAL_CHAIN_ID`); when unset, chain 1337
   * itself if configured, else the one configured local chain (31337).
   */
  localChainId?: number | undefined
}

/**
 * `RPC_WS_URL_<chainId>=wss://…`. Problems name the variable, never the URL (URLs often embed
 * provider keys).
 */
export function loadSyncConfig(env: Env, problems: string[]): SyncConfig {
  const headUrls = new Map<number, string>()
  for (const [name, raw] of Object.entries(env)) {
    const match = /^RPC_WS_URL_(.+)$/.exec(name)
    if (!match || raw === undefined || raw.trim() === '') continue
    if (!/^[1-9][0-9]{0,15}$/.test(match[1]!)) {
      problems.push(`${name}: the part after RPC_WS_URL_ must be a decimal chain id`)
      continue
    }
    let protocol = ''
    try {
      protocol = new URL(raw.trim()).protocol
    } catch {
      // Reported below, without the value.
    }
    if (protocol !== 'ws:' && protocol !== 'wss:') {
      problems.push(`${name} is not a ws(s) URL`)
      continue
    }
    headUrls.set(Number(match[1]), raw.trim())
  }
  const local = env.COMPAT_LOCAL_CHAIN_ID?.trim()
  let localChainId: number | undefined
  if (local) {
    if (/^[1-9][0-9]{0,15}$/.test(local)) localChainId = Number(local)
    else problems.push(`COMPAT_LOCAL_CHAIN_ID is a decimal chain id (got "${local.slice(0, 40)}")`)
  }
  return { headUrls, localChainId }
}
