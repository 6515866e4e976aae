import { useMemo, useSyncExternalStore } from 'react'
import { initialWalletState } from '@portico/sdk/wallet'
import { usePortico } from './portico-provider.ts'

/**
 * The wallet: connectors (discovered browser wallets, WalletConnect, email, social), the
 * connected account and chain, and connect / disconnect. The wallet code loads on `load()` or
 * the first `connect()`, not when the hook renders.
 */
export function useWallet() {
  const portico = usePortico()
  const state = useSyncExternalStore(
    portico.wallet.subscribe,
    portico.wallet.get,
    () => initialWalletState,
  )
  // Actions keep their identity across state changes, so effects can depend on them.
  const actions = useMemo(
    () => ({
      /** Loads the wallet code and looks for browser wallets (waits up to 3000 ms). */
      load: async () => (await portico.loadWallet()).detectInjected(),
      connect: portico.connect,
      disconnect: portico.disconnect,
      /** Asks the wallet to switch (or add, then switch) to a chain. */
      switchChain: portico.switchChain,
    }),
    [portico],
  )
  return useMemo(
    () => ({ ...state, isConnected: state.status === 'connected', ...actions }),
    [state, actions],
  )
}
