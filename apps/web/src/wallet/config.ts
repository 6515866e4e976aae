import type { PorticoConfig } from '@portico/sdk/portico'

/** The build-time settings the app reads (Vite exposes only `VITE_`-prefixed variables). */
export type AppEnv = Record<string, string | boolean | undefined>

/**
 * Portico client settings from the Vite environment. None are needed: without vendor keys the
 * WalletConnect, email and social connectors are not offered (development builds list them with
 * the setting each needs). Node reads go
 * through the server's RPC gateway (`/api/rpc/:chainId`, allowed by the signed-in session)
 * unless `VITE_RPC_URL_<chainId>` names a public node. Only public identifiers belong here: all
 * of this ends up in the bundle.
 */
export function porticoConfigFromEnv(
  env: AppEnv,
  origin: string,
): Omit<PorticoConfig, 'storage' | 'window'> {
  const text = (name: string) => {
    const value = env[name]
    return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined
  }
  const chainIds = (text('VITE_CHAIN_IDS') ?? '1,31337')
    .split(',')
    .map((raw) => Number(raw.trim()))
    .filter((id) => Number.isSafeInteger(id) && id > 0)
  return {
    serverUrl: origin,
    appId: text('VITE_APP_ID') ?? 'portico',
    chains: chainIds.map((id) => ({
      id,
      rpcUrl: text(`VITE_RPC_URL_${id}`),
    })),
    walletConnectProjectId: text('VITE_WALLETCONNECT_PROJECT_ID'),
    magicApiKey: text('VITE_MAGIC_API_KEY'),
    web3AuthClientId: text('VITE_WEB3AUTH_CLIENT_ID'),
    web3AuthNetwork: text('VITE_WEB3AUTH_NETWORK'),
    vendors: () => import('./wallet-vendors.ts'),
    metadata: {
      name: 'Portico',
      description: 'Sign in with your wallet',
      url: origin,
      icons: [`${origin}/favicon.svg`],
    },
  }
}

/** `0x1234…abcd`: enough to recognise an address in the header. */
export function shortAddress(address: string): string {
  return `${address.slice(0, 6)}…${address.slice(-4)}`
}
