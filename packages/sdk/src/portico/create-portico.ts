import type { BackendClient, BackendFetch } from '../backend/client.ts'
import { createStore, type Store } from '../store/store.ts'
import type { CreateWalletParameters, Wallet } from '../wallet/create-wallet.ts'
import type { InjectedWindow } from '../wallet/detect-injected.ts'
import { initialWalletState, type WalletState, type WalletVendorConfig } from '../wallet/types.ts'
import {
  authReducer,
  initialAuthState,
  type AuthEvent,
  type AuthState,
  type SessionLostReason,
} from './auth-machine.ts'
import type * as SessionApi from './session-api.ts'
import type { SessionInfo } from './session-api.ts'
import type { SignInStep } from './sign-in-flow.ts'

const SESSION_HINT = 'portico.signedIn'

type Api = typeof SessionApi & { client: BackendClient }

export interface PorticoConfig extends WalletVendorConfig {
  /** Origin of the Portico server (the page's own origin in the app). */
  serverUrl: string
  appId: string
  /** Chains the wallet may use, first = default, with the node URL for each. */
  chains: CreateWalletParameters['chains']
  fetch?: BackendFetch | undefined
  /** Remembers the last wallet for reconnecting after a reload (localStorage in a browser). */
  storage?: CreateWalletParameters['storage']
  /** The page's window; without it (SSR, Node) browser wallets are not looked for. */
  window?: InjectedWindow | undefined
  injectedWaitMs?: number | undefined
  metadata?: CreateWalletParameters['metadata']
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
  /** Node URL for a chain: the configured one, else the server's RPC gateway (session auth). */
  nodeUrl(chainId: number): string
}

/**
 * Creates the Portico client once, outside React. Nothing happens until `start()`; the wallet
 * code loads on first use (or at start when a wallet was connected before the reload).
 *
 * @example
 * const portico = createPortico({ serverUrl: location.origin, appId: 'portico', chains, storage: localStorage, window })
 * void portico.start()
 */
export function createPortico(config: PorticoConfig): Portico {
  // The server API code loads with the first server call: anonymous visitors make none.
  let apiPromise: Promise<Api> | undefined
  const api = (): Promise<Api> => {
    apiPromise ??= Promise.all([import('../backend/client.ts'), import('./session-api.ts')]).then(
      ([{ createBackendClient }, sessionApi]) => ({
        ...sessionApi,
        client: createBackendClient({
          serverUrl: config.serverUrl,
          appId: config.appId,
          fetch: config.fetch,
        }),
      }),
    )
    return apiPromise
  }
  const serverUrl = config.serverUrl.replace(/\/+$/, '')
  const auth = createStore<AuthState>(initialAuthState)
  const wallet = createStore<WalletState>(initialWalletState)
  const signInStep = createStore<SignInStep | null>(null)
  const dispatch = (event: AuthEvent) => auth.set((state) => authReducer(state, event))
  const subdomain = config.subdomain ?? new URL(config.serverUrl).hostname
  let walletPromise: Promise<Wallet> | undefined
  let started: Promise<void> | undefined
  let lastAttempt: SignInParameters = {}

  function loadWallet(): Promise<Wallet> {
    walletPromise ??= (async () => {
      wallet.set((s) => ({ ...s, status: 'loading' }))
      const { createWallet } = await import('../wallet/create-wallet.ts')
      return createWallet({ ...config, store: wallet })
    })()
    walletPromise.catch(() => {
      walletPromise = undefined
      wallet.set((s) => ({ ...s, status: 'idle' }))
    })
    return walletPromise
  }

  function loseSession(reason: SessionLostReason) {
    if (auth.get().status !== 'authenticated') return
    dispatch({ type: 'SESSION_LOST', reason })
    // The server session belongs to the old account: end it too, quietly.
    if (reason !== 'session_gone') {
      void api()
        .then(({ client, logout }) => logout(client))
        .catch(() => undefined)
    }
  }

  // A hint (not the session: the cookie is HttpOnly) that this browser signed in, so anonymous
  // visitors' first load makes no session request at all.
  auth.subscribe((state) => {
    if (state.status === 'authenticated') config.storage?.setItem(SESSION_HINT, '1')
    if (state.status === 'unauthenticated') config.storage?.removeItem(SESSION_HINT)
  })

  // Account or chain changes and disconnects end an authenticated session (design.md section 3).
  wallet.subscribe((next, previous) => {
    const state = auth.get()
    if (state.status !== 'authenticated') return
    const { user } = state
    if (previous.status === 'connected' && next.status === 'disconnected') {
      return loseSession('wallet_disconnected')
    }
    if (next.status !== 'connected' || !next.address) return
    if (next.address.toLowerCase() !== user.address.toLowerCase()) {
      return loseSession('account_changed')
    }
    if (user.chainId !== undefined && next.chainId !== undefined && next.chainId !== user.chainId) {
      loseSession('chain_changed')
    }
  })

  async function reconnectIfRemembered(): Promise<void> {
    if (!config.storage?.getItem('portico.wallet.recentConnectorId')) return
    const loaded = await loadWallet()
    await loaded.reconnect()
  }

  async function signIn(parameters: SignInParameters = {}): Promise<void> {
    const status = auth.get().status
    if (status !== 'unauthenticated' && status !== 'error') return
    const attempt = {
      ...parameters,
      connectorId: parameters.connectorId ?? wallet.get().connectorId ?? lastAttempt.connectorId,
    }
    lastAttempt = attempt
    dispatch({ type: 'SIGN_IN' })
    signInStep.set('connecting')
    try {
      const loaded = await loadWallet()
      if (!attempt.connectorId) throw new Error('Choose a wallet to sign in with')
      const { address, chainId } = await loaded.connect(attempt.connectorId, {
        email: attempt.email,
      })
      const [{ signInWithWallet }, { client }] = await Promise.all([
        import('./sign-in-flow.ts'),
        api(),
      ])
      const user = await signInWithWallet({
        backend: client,
        wallet: loaded,
        address,
        chainId,
        subdomain,
        onStep: (step) => signInStep.set(step),
      })
      dispatch({ type: 'SIGN_IN_SUCCEEDED', user })
    } catch (error) {
      dispatch({ type: 'SIGN_IN_FAILED', error })
    } finally {
      signInStep.set(null)
    }
  }

  return {
    backend: async () => (await api()).client,
    auth,
    wallet,
    signInStep,
    loadWallet,

    start() {
      started ??= (async () => {
        try {
          if (config.storage && !config.storage.getItem(SESSION_HINT)) {
            return dispatch({ type: 'NO_SESSION' })
          }
          const { client, fetchSession } = await api()
          const user = await fetchSession(client)
          dispatch(user ? { type: 'SESSION_RESTORED', user } : { type: 'NO_SESSION' })
        } catch {
          // Server unreachable: nobody is signed in as far as this page can tell, but the
          // session may well exist, so keep the hint for the next page load.
          dispatch({ type: 'NO_SESSION' })
          config.storage?.setItem(SESSION_HINT, '1')
        }
      })().then(() => reconnectIfRemembered().catch(() => undefined))
      return started
    },

    async connect(connectorId, options) {
      const loaded = await loadWallet()
      await loaded.connect(connectorId, options)
    },

    async disconnect() {
      const loaded = await loadWallet()
      await loaded.disconnect()
    },

    nodeUrl: (chainId) =>
      config.chains.find((chain) => chain.id === chainId)?.rpcUrl ??
      `${serverUrl}/api/rpc/${chainId}`,
    signIn,
    retry: () => signIn(lastAttempt),
    dismiss: () => dispatch({ type: 'DISMISS' }),

    async signOut() {
      if (auth.get().status !== 'authenticated') return
      dispatch({ type: 'SIGN_OUT' })
      let failure: unknown
      try {
        const { client, logout } = await api()
        await logout(client)
      } catch (error) {
        // 401: the session was already gone, which is what signing out wants.
        if (!(await api().catch(() => undefined))?.isUnauthorized(error)) failure = error
      }
      dispatch(
        failure === undefined ? { type: 'SIGNED_OUT' } : { type: 'SIGNED_OUT', error: failure },
      )
      if (walletPromise) await (await walletPromise).disconnect().catch(() => undefined)
    },

    async listSessions() {
      const { client, fetchSessions, isUnauthorized } = await api()
      try {
        return await fetchSessions(client)
      } catch (error) {
        if (isUnauthorized(error)) loseSession('session_gone')
        throw error
      }
    },

    async revokeSession(id) {
      const { client, deleteSession, isUnauthorized } = await api()
      try {
        await deleteSession(client, id)
      } catch (error) {
        if (isUnauthorized(error)) loseSession('session_gone')
        throw error
      }
      const state = auth.get()
      if (state.status === 'authenticated' && state.user.sessionId === id) {
        loseSession('session_gone')
      }
    },
  }
}
