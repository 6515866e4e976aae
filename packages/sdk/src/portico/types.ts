import type { BackendClient, BackendFetch } from '../backend/client.ts'
import type { Store } from '../store/store.ts'
import type { CreateWalletParameters, Wallet } from '../wallet/create-wallet.ts'
import type { InjectedWindow } from '../wallet/detect-injected.ts'
import type { WalletState, WalletVendorConfig, WalletVendors } from '../wallet/types.ts'
import type { AuthState } from './auth-machine.ts'
import type { LinkedWallet, LinkWalletParameters } from '../auth/wallets.ts'
import type { SessionInfo } from './session-api.ts'
import type { SignInStep } from './sign-in-flow.ts'

// The shapes of the Portico client: its configuration and what it offers.

export interface PorticoConfig extends WalletVendorConfig {
  /** Origin of the Portico server (the page's own origin in the app). */
  serverUrl: string
  appId: string
  /**
   * Chains the wallet may use, first = default, each with its node URL; without one, the
   * server's RPC gateway (allowed by the signed-in session) serves that chain.
   */
  chains: readonly { id: number; rpcUrl?: string | undefined }[]
  fetch?: BackendFetch | undefined
  /** Remembers the last wallet for reconnecting after a reload (localStorage in a browser). */
  storage?: CreateWalletParameters['storage']
  /** The page's window; without it (SSR, Node) browser wallets are not looked for. */
  window?: InjectedWindow | undefined
  injectedWaitMs?: number | undefined
  metadata?: CreateWalletParameters['metadata']
  /**
   * Vendor connectors to offer (WalletConnect, email link, social login), or a function that
   * imports them, so their code loads with the wallet code rather than with the page:
   * `vendors: () => import('./wallet-vendors')`.
   */
  vendors?: WalletVendors | (() => Promise<WalletVendors>) | undefined
  /** Sent with tracked events; the server's host name by default. */
  subdomain?: string | undefined
}

export interface SignInParameters {
  /** Connector to use; the connected wallet (or the one of the last attempt) when omitted. */
  connectorId?: string | undefined
  email?: string | undefined
}

/** Wallet + authentication + backend client, created once and shared (wagmi's createConfig idea). */
export interface Portico {
  /** The backend client (its code loads on first use, keeping the first page load small). */
  backend(): Promise<BackendClient>
  readonly auth: Pick<Store<AuthState>, 'get' | 'subscribe'>
  readonly wallet: Pick<Store<WalletState>, 'get' | 'subscribe'>
  /** Where a running sign-in is: connecting, waiting for the signature, verifying. */
  readonly signInStep: Pick<Store<SignInStep | null>, 'get' | 'subscribe'>
  /** Restores the server session and reconnects the last wallet; safe to call more than once. */
  start(): Promise<void>
  /** Loads the wallet code (wagmi, connectors); vendor SDKs still load only when chosen. */
  loadWallet(): Promise<Wallet>
  connect(connectorId: string, options?: { email?: string }): Promise<void>
  /** Asks the connected wallet to switch (or add, then switch) to `chainId`. */
  switchChain(chainId: number): Promise<void>
  disconnect(): Promise<void>
  /** Runs the whole sign-in; failures end in the `error` state, never as a rejection. */
  signIn(parameters?: SignInParameters): Promise<void>
  /** From `error`: tries the last sign-in again. */
  retry(): Promise<void>
  /** From `error`: back to `unauthenticated`. */
  dismiss(): void
  /** `logging_out` → `unauthenticated`, even if the server cannot be reached (then reported). */
  signOut(): Promise<void>
  listSessions(): Promise<SessionInfo[]>
  revokeSession(id: string): Promise<void>
  /**
   * Links another wallet to the signed-in user, signed by that wallet (e.g. a second account or
   * connector; switching the connected wallet to an unlinked account ends the session first).
   */
  linkWallet(parameters: LinkWalletParameters): Promise<LinkedWallet[]>
  /** The signed-in user's wallets, the primary first. */
  linkedWallets(): Promise<LinkedWallet[]>
  /** Unlinks one of the signed-in user's wallets (the last one stays). */
  unlinkWallet(address: `0x${string}`): Promise<LinkedWallet[]>
  /** Node URL for a chain: the configured one, else the server's RPC gateway (session auth). */
  nodeUrl(chainId: number): string
}
