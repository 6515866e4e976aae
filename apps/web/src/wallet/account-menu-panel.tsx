import { Link } from 'wouter'
import { useAuth } from '@portico/react'
import { Avatar } from '../ui/identicon.tsx'
import { useCopy } from './use-copy.ts'

/** The open account menu: who (picture, name, full address, copyable), the Account page, sign out. */
export function AccountMenuPanel({
  id,
  address,
  displayName,
  avatarUrl,
  onDone,
}: {
  id: string
  address: string
  displayName?: string | undefined
  avatarUrl?: string | undefined
  onDone(): void
}) {
  const auth = useAuth()
  const { copied, copy } = useCopy(address)
  return (
    <div id={id} className="account-menu-panel" role="group" aria-label="Account">
      <div className="account-menu-who">
        <Avatar address={address} url={avatarUrl} size={40} />
        <div>
          {displayName && <p className="account-menu-name">{displayName}</p>}
          <p className="address account-menu-address">{address}</p>
        </div>
      </div>
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
