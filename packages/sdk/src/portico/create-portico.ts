import type { LinkedWallet } from '../auth/wallets.ts'
import type { BackendClient } from '../backend/client.ts'
import { gatewayChainUrl, nodeDefaults } from '../rpc/defaults.ts'
import { createStore } from '../store/store.ts'
import type { Wallet } from '../wallet/create-wallet.ts'
import { initialWalletState, type WalletState } from '../wallet/types.ts'
import {
  authReducer,
  initialAuthState,
  type AuthEvent,
  type AuthState,
  type SessionLostReason,
} from './auth-machine.ts'
import type * as SessionApi from './session-api.ts'
import {
  endSessionOnWalletChange,
  followOtherTabs,
  rememberSignedIn,
  SESSION_HINT,
} from './session-rules.ts'
import type { SignInStep } from './sign-in-flow.ts'
import type { Portico, PorticoConfig, SignInParameters } from './types.ts'

export type { Portico, PorticoConfig, SignInParameters } from './types.ts'

type Api = typeof SessionApi & { client: BackendClient }

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
  const gatewayUrl = (chainId: number) =>
    gatewayChainUrl(`${serverUrl}${nodeDefaults.gatewayUrl}`, chainId)
  const chains = config.chains.map(({ id, rpcUrl }) => ({ id, rpcUrl: rpcUrl ?? gatewayUrl(id) }))
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
      const [{ createWallet }, vendors] = await Promise.all([
        import('../wallet/create-wallet.ts'),
        typeof config.vendors === 'function' ? config.vendors() : config.vendors,
      ])
      return createWallet({ ...config, vendors, chains, store: wallet })
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
    // The server session belongs to the old account: end it too, quietly (unless it is gone).
    if (reason !== 'session_gone' && reason !== 'signed_out_elsewhere') {
      void api()
        .then(({ client, logout }) => logout(client))
        .catch(() => undefined)
    }
  }

  rememberSignedIn(auth, config.storage)
  endSessionOnWalletChange(wallet, auth, loseSession)
  followOtherTabs(config.window, {
    signedOut: () => loseSession('signed_out_elsewhere'),
    // Another tab signed in: the cookie is shared, so this tab's sign-in completes without a
    // wallet (through the machine's own sign-in transitions).
    signedIn: () => {
      if (auth.get().status !== 'unauthenticated') return
      void api()
        .then(({ client, fetchSession }) => fetchSession(client))
        .then((user) => {
          if (!user || auth.get().status !== 'unauthenticated') return
          dispatch({ type: 'SIGN_IN' })
          dispatch({ type: 'SIGN_IN_SUCCEEDED', user })
        })
        .catch(() => undefined)
    },
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

  /** Runs a call answering the user's wallets, and keeps the signed-in user's addresses. */
  async function changeWallets(
    call: (api: Api) => Promise<LinkedWallet[]>,
  ): Promise<LinkedWallet[]> {
    const loaded = await api()
    let wallets: LinkedWallet[]
    try {
      wallets = await call(loaded)
    } catch (error) {
      if (loaded.isUnauthorized(error)) loseSession('session_gone')
      throw error
    }
    const primary = wallets.find((wallet) => wallet.primary)
    if (primary) {
      dispatch({
        type: 'WALLETS_CHANGED',
        address: primary.address as `0x${string}`,
        addresses: wallets.map((wallet) => wallet.address as `0x${string}`),
      })
    }
    return wallets
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

    async switchChain(chainId) {
      const loaded = await loadWallet()
      await loaded.switchChain(chainId)
    },

    nodeUrl: (chainId) =>
      chains.find((chain) => chain.id === chainId)?.rpcUrl ?? gatewayUrl(chainId),
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

    linkWallet: (parameters) => changeWallets((api) => api.linkWallet(api.client, parameters)),
    linkedWallets: () => changeWallets((api) => api.linkedWallets(api.client)),
    unlinkWallet: (address) => changeWallets((api) => api.unlinkWallet(api.client, address)),

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
