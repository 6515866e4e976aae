import { useMemo, useSyncExternalStore } from 'react'
import { authFlags, initialAuthState, type AuthState } from '@portico/sdk/portico'
import { usePortico } from './portico-provider.ts'

/**
 * Authentication: the state of the sign-in state machine (docs/architecture.md), the user, the error, derived booleans and
 * the actions. Re-renders only when the state changes.
 *
 * @example
 * const { isAuthenticated, user, signIn } = useAuth()
 */
export function useAuth() {
  const portico = usePortico()
  // The server snapshot is the state the page was pre-rendered with, so hydration matches and
  // React then re-renders with the live state.
  const state: AuthState = useSyncExternalStore(
    portico.auth.subscribe,
    portico.auth.get,
    () => initialAuthState,
  )
  const step = useSyncExternalStore(
    portico.signInStep.subscribe,
    portico.signInStep.get,
    () => null,
  )
  return useMemo(
    () => ({
      state,
      status: state.status,
      user:
        state.status === 'authenticated' || state.status === 'logging_out' ? state.user : undefined,
      error:
        state.status === 'error' || state.status === 'unauthenticated' ? state.error : undefined,
      /** Where a running sign-in is: `connecting`, `signing` (check the wallet), `verifying`. */
      signInStep: step,
      ...authFlags(state),
      signIn: portico.signIn,
      signOut: portico.signOut,
      retry: portico.retry,
      dismiss: portico.dismiss,
      /** The user's wallets: link another (signed by it), list them, unlink one. */
      linkWallet: portico.linkWallet,
      linkedWallets: portico.linkedWallets,
      unlinkWallet: portico.unlinkWallet,
    }),
    [portico, state, step],
  )
}
