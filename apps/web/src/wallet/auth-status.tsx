import { lazy, Suspense } from 'react'
import { useAuth } from '@portico/react'
import { shortAddress } from './config.ts'

const AccountMenu = lazy(() => import('./account-menu.tsx'))
import { useConnectDialog } from './connect-dialog-provider.tsx'

/**
 * The header's view of authentication: Connect button, signing in, the account menu, signing
 * out, or the error with a retry. `data-auth-state` carries the raw state. It keeps one size
 * whatever the state, so nothing around it moves when the state changes.
 */
export function AuthStatus() {
  const auth = useAuth()
  const { openConnect } = useConnectDialog()
  let content
  switch (auth.status) {
    case 'undefined':
    case 'unauthenticated':
      content = (
        <>
          <button type="button" onClick={openConnect} disabled={auth.status === 'undefined'}>
            Connect wallet
          </button>
          {auth.error !== undefined && (
            // signed out locally even when the server call failed; say so.
            <span className="auth-note" role="alert">
              Signed out on this device, but the server could not be reached to end the session.
            </span>
          )}
        </>
      )
      break
    case 'authenticating':
      content = (
        <button type="button" className="button-secondary" onClick={openConnect}>
          Signing in…
        </button>
      )
      break
    case 'authenticated':
      content = (
        // Same size as the menu's button, so nothing moves when its code arrives.
        <Suspense
          fallback={
            <span className="account-button button-secondary address" aria-busy="true">
              {shortAddress(auth.user!.address)}
            </span>
          }
        >
          <AccountMenu address={auth.user!.address} userId={auth.user!.id} />
        </Suspense>
      )
      break
    case 'logging_out':
      content = <span>Signing out…</span>
      break
    case 'error':
      content = (
        <button type="button" onClick={() => (openConnect(), void auth.retry())}>
          <span className="visually-hidden">Sign-in failed. </span>Retry sign-in
        </button>
      )
      break
  }
  return (
    <div className="auth-status" data-auth-state={auth.status} aria-live="polite">
      {content}
    </div>
  )
}
