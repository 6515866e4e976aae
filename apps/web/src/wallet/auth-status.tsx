import { Link } from 'wouter'
import { useAuth } from '@portico/react'
import { shortAddress } from './config.ts'
import { useConnectDialog } from './connect-dialog-provider.tsx'

/**
 * The header's view of authentication: Connect button, signing in, signed in as
 * 0x12…ab, signing out, or the error with a retry. `data-auth-state` carries the raw state.
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
        <Link href="/account" className="signed-in">
          Signed in as <span className="address">{shortAddress(auth.user!.address)}</span>
        </Link>
      )
      break
    case 'logging_out':
      content = <span>Signing out…</span>
      break
    case 'error':
      content = (
        <>
          <span className="auth-error-text">Sign-in failed</span>
          <button type="button" onClick={() => (openConnect(), void auth.retry())}>
            Retry
          </button>
        </>
      )
      break
  }
  return (
    <div className="auth-status" data-auth-state={auth.status} aria-live="polite">
      {content}
    </div>
  )
}
