import { useState } from 'react'
import { Link } from 'wouter'
import { useAuth } from '@portico/react'

/** The open account menu: the full address (copyable), the Account page, and sign out. */
export function AccountMenuPanel({
  id,
  address,
  onDone,
}: {
  id: string
  address: string
  onDone(): void
}) {
  const auth = useAuth()
  const [copied, setCopied] = useState<'yes' | 'failed'>()
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(address)
      setCopied('yes')
    } catch {
      setCopied('failed')
    }
  }
  return (
    <div id={id} className="account-menu-panel" role="group" aria-label="Account">
      <p className="address account-menu-address">{address}</p>
      <ul>
        <li>
          <button type="button" className="button-secondary" onClick={() => void copy()}>
            {copied === 'yes' ? 'Address copied' : 'Copy address'}
          </button>
          {copied === 'failed' && (
            <p className="muted small" role="status">
              Could not copy: select the address above instead.
            </p>
          )}
        </li>
        <li>
          <Link href="/account" onClick={onDone}>
            Account
          </Link>
        </li>
        <li>
          <button
            type="button"
            className="button-secondary"
            onClick={() => {
              onDone()
              void auth.signOut()
            }}
          >
            Sign out
          </button>
        </li>
      </ul>
    </div>
  )
}
