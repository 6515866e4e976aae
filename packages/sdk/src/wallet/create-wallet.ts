import {
  connect as wagmiConnect,
  createConfig,
  createStorage,
  disconnect as wagmiDisconnect,
  getConnection,
  injected,
  reconnect as wagmiReconnect,
  switchChain as wagmiSwitchChain,
  type Connector,
  type Storage,
} from '@wagmi/core'
import {
  createWalletClient,
  custom,
  defineChain,
  http,
  type Address,
  type Chain,
  type EIP1193Provider,
  type Hex,
} from 'viem'
import {
  ConnectorNotFoundError,
  NoBrowserWalletError,
  WalletNotConnectedError,
} from '../errors/wallet.ts'
import type { Store } from '../store/store.ts'
import { injectedWaitMs, waitForInjectedWallet, type InjectedWindow } from './detect-injected.ts'
import { chainName } from '../chain-names.ts'
import type {
  WalletConnectorInfo,
  WalletKind,
  WalletState,
  WalletVendorConfig,
  WalletVendors,
} from './types.ts'

export interface CreateWalletParameters extends WalletVendorConfig {
  /** The state the app watches; this module writes into it. */
  store: Store<WalletState>
  /** Chains the app uses, the first being the default; node URL per chain. */
  chains: readonly { id: number; rpcUrl: string }[]
  /** Where the last connected wallet is remembered (localStorage in the browser). */
  storage?: Pick<globalThis.Storage, 'getItem' | 'setItem' | 'removeItem'> | undefined
  /** The page's window (EIP-6963 events, legacy `window.ethereum`). */
  window?: InjectedWindow | undefined
  /** How long to wait for a browser wallet to appear (ms). Default 3000. */
  injectedWaitMs?: number | undefined
  /** Vendor connectors to offer besides browser wallets (each from its own entry point). */
  vendors?: WalletVendors | undefined
  /** Shown in WalletConnect wallets. */
  metadata?: { name: string; description: string; url: string; icons: string[] } | undefined
}

/** The loaded wallet stack: wagmi config plus the actions the app needs. */
export interface Wallet {
  /**
   * Waits (≤ 3000 ms) for a browser wallet; updates `injectedSearch`. Looks once per page load:
   * later calls answer the first search's result.
   */
  detectInjected(): Promise<boolean>
  connect(
    connectorId: string,
    options?: { email?: string },
  ): Promise<{ address: Address; chainId: number }>
  disconnect(): Promise<void>
  /** Reconnects the wallet used last, if it is still authorised. */
  reconnect(): Promise<void>
  /** Signs a text message (EIP-191 `personal_sign`) with the connected account. */
  signMessage(message: string): Promise<Hex>
  /**
   * Asks the wallet to switch to `chainId` (`wallet_switchEthereumChain`), adding the chain
   * first when the wallet does not know it (`wallet_addEthereumChain`, with the site's node URL).
   */
  switchChain(chainId: number): Promise<void>
}

const LEGACY_ID = 'injected'
const kinds: Record<string, WalletKind> = {
  walletConnect: 'walletConnect',
  magic: 'magic',
  web3auth: 'web3auth',
}

function toChain({ id, rpcUrl }: { id: number; rpcUrl: string }): Chain {
  return defineChain({
    id,
    name: chainName(id),
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  })
}

function vendorConnectors(
  parameters: CreateWalletParameters,
  chainIds: readonly [number, ...number[]],
  onDisplayUri: (uri: string) => void,
) {
  const { walletConnect, magicLink, web3Auth } = parameters.vendors ?? {}
  const first = parameters.chains[0]!
  return [
    walletConnect?.({
      projectId: parameters.walletConnectProjectId,
      chainIds,
      rpcUrls: Object.fromEntries(parameters.chains.map((c) => [c.id, c.rpcUrl])),
      metadata: parameters.metadata,
      onDisplayUri,
    }),
    magicLink?.({ apiKey: parameters.magicApiKey, chainId: first.id, rpcUrl: first.rpcUrl }),
    web3Auth?.({ clientId: parameters.web3AuthClientId, network: parameters.web3AuthNetwork }),
  ].filter((connector) => connector !== undefined)
}

/**
 * Builds the wallet stack on @wagmi/core: EIP-6963 discovery, the legacy injected wallet, and
 * the vendor connectors the app passed in (their SDKs load only when chosen). Loaded lazily by createPortico.
 */
export function createWallet(parameters: CreateWalletParameters): Wallet {
  const { store } = parameters
  const win = parameters.window
  const chains = parameters.chains.map(toChain) as [Chain, ...Chain[]]
  const chainIds = chains.map((chain) => chain.id) as [number, ...number[]]
  const storage: Storage = createStorage({
    key: 'portico.wallet',
    storage: parameters.storage ?? { getItem: () => null, setItem() {}, removeItem() {} },
  })
  const configured = {
    walletConnect: Boolean(parameters.walletConnectProjectId),
    magic: Boolean(parameters.magicApiKey),
    web3auth: Boolean(parameters.web3AuthClientId),
  } as Record<string, boolean>

  const config = createConfig({
    chains,
    ssr: !win,
    storage,
    multiInjectedProviderDiscovery: true,
    transports: Object.fromEntries(parameters.chains.map((c) => [c.id, http(c.rpcUrl)])),
    connectors: [
      injected({
        target: () => ({ id: LEGACY_ID, name: 'Browser wallet', provider: () => win?.ethereum }),
      }),
      ...vendorConnectors(parameters, chainIds, (uri) =>
        store.set((s) => ({ ...s, pairingUri: uri })),
      ),
    ],
  })

  function announcedProviders(): unknown[] {
    return config._internal.mipd?.getProviders().map((detail) => detail.provider) ?? []
  }

  function connectorInfos(): WalletConnectorInfo[] {
    const announced = announcedProviders()
    return config.connectors
      .filter((connector) => {
        // The legacy entry only when window.ethereum is a wallet EIP-6963 did not already list.
        if (connector.id !== LEGACY_ID) return true
        return Boolean(win?.ethereum) && !announced.includes(win?.ethereum)
      })
      .map((connector) => ({
        id: connector.id,
        name: connector.name,
        icon: connector.icon,
        kind: kinds[connector.id] ?? (connector.id === LEGACY_ID ? 'injected' : 'eip6963'),
        configured: configured[connector.id] ?? true,
      }))
  }

  function sync(): void {
    const connection = getConnection(config)
    store.set((state) => ({
      ...state,
      status: connection.status,
      connectors: connectorInfos(),
      address: connection.address,
      chainId: connection.chainId,
      connectorId: connection.connector?.id,
      pairingUri: connection.status === 'connecting' ? state.pairingUri : undefined,
    }))
  }
  config.subscribe((state) => state, sync)
  config._internal.connectors.subscribe(sync)
  sync()

  function find(connectorId: string): Connector {
    const connector = config.connectors.find((c) => c.id === connectorId)
    if (!connector) throw new ConnectorNotFoundError({ id: connectorId })
    return connector
  }

  // Looked for once per page load: an extension installed later needs a reload anyway, and a
  // wallet that announces itself afterwards (EIP-6963) still joins the list through `sync`.
  let search: Promise<boolean> | undefined
  function detectInjected(): Promise<boolean> {
    if (!win) return Promise.resolve(false)
    search ??= (async () => {
      store.set((s) => ({ ...s, injectedSearch: 'searching' }))
      const found = await waitForInjectedWallet(win, {
        timeoutMs: parameters.injectedWaitMs ?? injectedWaitMs,
      })
      store.set((s) => ({ ...s, injectedSearch: found ? 'found' : 'none' }))
      sync()
      return found
    })()
    return search
  }

  return {
    detectInjected,

    async connect(connectorId, options = {}) {
      if (connectorId === LEGACY_ID && !win?.ethereum && !(await detectInjected())) {
        throw new NoBrowserWalletError({ waitedMs: parameters.injectedWaitMs ?? injectedWaitMs })
      }
      const connector = find(connectorId)
      const current = getConnection(config)
      if (current.status === 'connected' && current.connector?.uid === connector.uid) {
        return { address: current.address, chainId: current.chainId }
      }
      if (current.status === 'connected') await wagmiDisconnect(config).catch(() => undefined)
      store.set((s) => ({ ...s, pairingUri: undefined }))
      const result = await wagmiConnect(config, { connector, ...options } as never)
      const address = (result as { accounts: readonly Address[] }).accounts[0]!
      return { address, chainId: (result as { chainId: number }).chainId }
    },

    async disconnect() {
      await wagmiDisconnect(config).catch(() => undefined)
      sync()
    },

    async reconnect() {
      const recent = await storage.getItem('recentConnectorId')
      const connector = recent ? config.connectors.find((c) => c.id === recent) : undefined
      if (!connector) return
      // Only the connector used last: asking every connector would load every vendor SDK.
      if (connector.id in kinds) {
        if (!(await connector.isAuthorized())) return
        await wagmiConnect(config, { connector, isReconnecting: true } as never).catch(
          () => undefined,
        )
      } else {
        await wagmiReconnect(config, { connectors: [connector] })
      }
      sync()
    },

    async switchChain(chainId) {
      const connection = getConnection(config)
      if (connection.status !== 'connected') throw new WalletNotConnectedError()
      await wagmiSwitchChain(config, { chainId })
      sync()
    },

    async signMessage(message) {
      const connection = getConnection(config)
      if (connection.status !== 'connected' || !connection.connector) {
        throw new WalletNotConnectedError()
      }
      const provider = (await connection.connector.getProvider()) as EIP1193Provider
      const client = createWalletClient({ transport: custom(provider) })
      return client.signMessage({ account: connection.address, message })
    },
  }
}
