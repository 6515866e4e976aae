import type { Address } from 'viem'
import type { magicLink } from './magic.ts'
import type { walletConnect } from './wallet-connect.ts'
import type { web3Auth } from './web3-auth.ts'

/** How a connector reaches the wallet. */
export type WalletKind = 'eip6963' | 'injected' | 'walletConnect' | 'magic' | 'web3auth'

/** One way to connect, as the connect dialog lists it. */
export interface WalletConnectorInfo {
  id: string
  name: string
  /** Data URI or URL of the wallet's icon (EIP-6963 wallets announce one). */
  icon?: string | undefined
  kind: WalletKind
  /** False when the site has not configured the vendor (project id, API key, client id). */
  configured: boolean
}

export type WalletStatus =
  /** The wallet code has not been loaded yet (nothing chosen, nothing to reconnect). */
  'idle' | 'loading' | 'disconnected' | 'connecting' | 'reconnecting' | 'connected'

/** What the wallet side knows, as one immutable value. */
export interface WalletState {
  status: WalletStatus
  connectors: readonly WalletConnectorInfo[]
  address?: Address | undefined
  chainId?: number | undefined
  connectorId?: string | undefined
  /** WalletConnect pairing URI while waiting for the phone; the app renders the QR. */
  pairingUri?: string | undefined
  /** Looking for a browser wallet (waits up to 3000 ms for one to appear). */
  injectedSearch: 'idle' | 'searching' | 'found' | 'none'
}

/** Vendor settings; each missing one leaves its connector listed as not configured. */
export interface WalletVendorConfig {
  walletConnectProjectId?: string | undefined
  magicApiKey?: string | undefined
  web3AuthClientId?: string | undefined
  web3AuthNetwork?: string | undefined
}

export const initialWalletState: WalletState = {
  status: 'idle',
  connectors: [],
  injectedSearch: 'idle',
}

/**
 * The vendor connectors an app installed, each from its own entry point
 * (`@portico/sdk/wallet/walletconnect`, `/wallet/magic`, `/wallet/web3auth`), so that the core
 * SDK never references a vendor SDK: a project that does not use one need not install it.
 */
export interface WalletVendors {
  walletConnect?: typeof walletConnect | undefined
  magicLink?: typeof magicLink | undefined
  web3Auth?: typeof web3Auth | undefined
}
