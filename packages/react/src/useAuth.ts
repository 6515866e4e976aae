import { useMemo, useSyncExternalStore } from 'react'
import { authFlags, type AuthState } from '@portico/sdk/portico/authMachine'
import { usePortico } from './PorticoProvider.ts'

/**
 * Authentication: the state of design.md section 3, the user, the error, derived booleans and
 * the actions. Re-renders only when the state changes.
 *
 * @example
 * const { isAuthenticated, user, signIn } = useAuth()
 */
export function useAuth() {
  const portico = usePortico()
  const state: AuthState = useSyncExternalStore(
    portico.auth.subscribe,
    portico.auth.get,
    portico.auth.get,
  )
  const step = useSyncExternalStore(
    portico.signInStep.subscribe,
    portico.signInStep.get,
    portico.signInStep.get,
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
    }),
    [portico, state, step],
  )
}
