// The authentication state machine (docs/architecture.md), as a pure reducer: no I/O, no time,
// no randomness. The effects (server calls, wallet prompts) live in createPortico and dispatch
// the events below; a transition that the diagram does not allow leaves the state unchanged.

/** The six states of the spec (point 4), with the spec's own spelling. */
export type AuthStatus =
  'undefined' | 'unauthenticated' | 'authenticating' | 'authenticated' | 'logging_out' | 'error'

/** The signed-in user as the server describes them. */
export interface AuthUser {
  id: string
  /** The user's primary address (checksummed): the one they first signed in with. */
  address: `0x${string}`
  /** Every address that signs in as the user (their linked wallets), the primary first. */
  addresses?: readonly `0x${string}`[] | undefined
  /** The user's role on the site's team (console and analytics), absent for everyone else. */
  role?: 'admin' | 'viewer' | undefined
  /** Chain the user signed in on, when known. */
  chainId?: number | undefined
  /** Server session id. */
  sessionId?: string | undefined
  /** ISO time the server session expires. */
  expiresAt?: string | undefined
}

/** Why an authenticated user became unauthenticated without signing out. */
export type SessionLostReason =
  | 'session_gone'
  | 'account_changed'
  | 'chain_changed'
  | 'wallet_disconnected'
  /** Another tab of this browser signed out (the session they share is gone). */
  | 'signed_out_elsewhere'

export type AuthState =
  | { status: 'undefined' }
  | {
      status: 'unauthenticated'
      /** Set when a sign-out could not reach the server (the local session is cleared anyway). */
      error?: unknown
      /** Set when the session ended by itself rather than by signing out. */
      reason?: SessionLostReason | undefined
    }
  | { status: 'authenticating' }
  | { status: 'authenticated'; user: AuthUser }
  | { status: 'logging_out'; user: AuthUser }
  | { status: 'error'; error: unknown }

export type AuthEvent =
  /** Start-up: the server knows a session for this browser. */
  | { type: 'SESSION_RESTORED'; user: AuthUser }
  /** Start-up: no session (or it could not be checked). */
  | { type: 'NO_SESSION' }
  /** The user starts sign-in (also the retry from `error`). */
  | { type: 'SIGN_IN' }
  | { type: 'SIGN_IN_SUCCEEDED'; user: AuthUser }
  | { type: 'SIGN_IN_FAILED'; error: unknown }
  /** The user dismisses an error. */
  | { type: 'DISMISS' }
  | { type: 'SIGN_OUT' }
  /** The sign-out finished; `error` when the server call failed. */
  | { type: 'SIGNED_OUT'; error?: unknown }
  /** Server said 401, or the wallet changed account or chain, or disconnected. */
  | { type: 'SESSION_LOST'; reason: SessionLostReason }
  /** A wallet was linked or unlinked: the user's addresses now. */
  | { type: 'WALLETS_CHANGED'; address: `0x${string}`; addresses: readonly `0x${string}`[] }

export const initialAuthState: AuthState = { status: 'undefined' }

/**
 * Next state for an event. Returns the same object when the event does not apply to the
 * current state, so subscribers can skip re-rendering.
 */
export function authReducer(state: AuthState, event: AuthEvent): AuthState {
  switch (state.status) {
    case 'undefined':
      if (event.type === 'SESSION_RESTORED') return { status: 'authenticated', user: event.user }
      if (event.type === 'NO_SESSION') return { status: 'unauthenticated' }
      return state
    case 'unauthenticated':
      if (event.type === 'SIGN_IN') return { status: 'authenticating' }
      return state
    case 'authenticating':
      if (event.type === 'SIGN_IN_SUCCEEDED') return { status: 'authenticated', user: event.user }
      if (event.type === 'SIGN_IN_FAILED') return { status: 'error', error: event.error }
      return state
    case 'error':
      if (event.type === 'SIGN_IN') return { status: 'authenticating' }
      if (event.type === 'DISMISS') return { status: 'unauthenticated' }
      return state
    case 'authenticated':
      if (event.type === 'SIGN_OUT') return { status: 'logging_out', user: state.user }
      if (event.type === 'SESSION_LOST') return { status: 'unauthenticated', reason: event.reason }
      if (event.type === 'WALLETS_CHANGED') {
        const { address, addresses } = event
        return { status: 'authenticated', user: { ...state.user, address, addresses } }
      }
      return state
    case 'logging_out':
      if (event.type === 'SIGNED_OUT') {
        return event.error === undefined
          ? { status: 'unauthenticated' }
          : { status: 'unauthenticated', error: event.error }
      }
      return state
  }
}

/** Booleans the UI usually wants, derived from the state. */
export function authFlags(state: AuthState) {
  return {
    isInitializing: state.status === 'undefined',
    isAuthenticated: state.status === 'authenticated',
    isAuthenticating: state.status === 'authenticating',
    isLoggingOut: state.status === 'logging_out',
    hasError: state.status === 'error',
    isUnauthenticated: state.status === 'unauthenticated',
  }
}
