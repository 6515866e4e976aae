import type { Store } from '../store/store.ts'
import type { WalletState } from '../wallet/types.ts'
import type { AuthState, SessionLostReason } from './auth-machine.ts'
import type { PorticoConfig } from './types.ts'
import type { InjectedWindow } from '../wallet/detect-injected.ts'

// Rules that tie the sign-in state to the rest of the page, kept apart from the client's wiring.

/** localStorage key of the hint that this browser has signed in. */
export const SESSION_HINT = 'portico.signedIn'

/**
 * Keeps a hint (not the session: the cookie is HttpOnly) that this browser signed in, so that
 * anonymous visitors' first load makes no session request at all (docs/decisions.md).
 */
export function rememberSignedIn(
  auth: Pick<Store<AuthState>, 'subscribe'>,
  storage: PorticoConfig['storage'],
): void {
  auth.subscribe((state) => {
    if (state.status === 'authenticated') storage?.setItem(SESSION_HINT, '1')
    if (state.status === 'unauthenticated') storage?.removeItem(SESSION_HINT)
  })
}

/**
 * An account or chain change, or a disconnect, ends an authenticated session; a change to
 * another wallet linked to the user does not (it signs in as them too).
 */
export function endSessionOnWalletChange(
  wallet: Pick<Store<WalletState>, 'subscribe'>,
  auth: Pick<Store<AuthState>, 'get'>,
  loseSession: (reason: SessionLostReason) => void,
): void {
  wallet.subscribe((next, previous) => {
    const state = auth.get()
    if (state.status !== 'authenticated') return
    const { user } = state
    if (previous.status === 'connected' && next.status === 'disconnected') {
      return loseSession('wallet_disconnected')
    }
    if (next.status !== 'connected' || !next.address) return
    const own = [user.address, ...(user.addresses ?? [])].map((a) => a.toLowerCase())
    if (!own.includes(next.address.toLowerCase())) {
      return loseSession('account_changed')
    }
    if (user.chainId !== undefined && next.chainId !== undefined && next.chainId !== user.chainId) {
      loseSession('chain_changed')
    }
  })
}

/**
 * Tabs of one browser share the session cookie, so they follow each other: the session hint in
 * localStorage changes in one tab, and the others get a `storage` event at once (it never fires
 * in the tab that made the change). Removed → `signedOut`; set → `signedIn`.
 */
export function followOtherTabs(
  window: Pick<InjectedWindow, 'addEventListener'> | undefined,
  on: { signedOut(): void; signedIn(): void },
): void {
  window?.addEventListener('storage', (event) => {
    const { key, newValue } = event as StorageEvent
    if (key !== SESSION_HINT && key !== null) return
    if (newValue === null) on.signedOut()
    else on.signedIn()
  })
}
