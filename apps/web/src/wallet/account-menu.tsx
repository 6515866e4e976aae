import { useEffect, useId, useRef, useState } from 'react'
import { useLocation } from 'wouter'
import { useOwnProfile } from '../profile/use-own-profile.ts'
import { Avatar } from '../ui/identicon.tsx'
import { shortAddress } from './config.ts'

import { AccountMenuPanel } from './account-menu-panel.tsx'

/**
 * The signed-in user in the header: their avatar and display name (else an identicon and the short
 * address) on a button of fixed size, which opens a small panel (name, full address with copy,
 * Account, Sign out). Escape, a click outside and a
 * route change close it. Its code loads when a user is signed in, not with the first page.
 */
export default function AccountMenu({ address, userId }: { address: string; userId: string }) {
  const profile = useOwnProfile(userId)
  const name = profile.displayName ?? shortAddress(address)
  const [open, setOpen] = useState(false)
  const id = useId()
  const root = useRef<HTMLDivElement>(null)
  const button = useRef<HTMLButtonElement>(null)
  const [location] = useLocation()

  useEffect(() => setOpen(false), [location])
  useEffect(() => {
    if (!open) return
    const outside = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false)
    }
    document.addEventListener('pointerdown', outside)
    return () => document.removeEventListener('pointerdown', outside)
  }, [open])

  return (
    <div
      ref={root}
      className="account-menu"
      // Tabbing out of the open menu closes it, as a click outside does (a click on the panel's
      // text moves focus nowhere: relatedTarget is null, and the menu stays).
      onBlur={(event) => {
        const next = event.relatedTarget as Node | null
        if (open && next && !event.currentTarget.contains(next)) {
          setOpen(false)
        }
      }}
      onKeyDown={(event) => {
        if (event.key === 'Escape' && open) {
          setOpen(false)
          button.current?.focus()
        }
      }}
    >
      <button
        ref={button}
        type="button"
        className="account-button button-secondary"
        aria-expanded={open}
        aria-controls={id}
        aria-label={`Account menu, signed in as ${profile.displayName ? `${profile.displayName} (${shortAddress(address)})` : shortAddress(address)}`}
        onClick={() => setOpen(!open)}
      >
        <Avatar address={address} url={profile.avatarUrl} size={20} />
        <span className={profile.displayName ? 'account-name' : 'address'}>{name}</span>
      </button>
      {open && (
        <AccountMenuPanel
          id={id}
          address={address}
          displayName={profile.displayName}
          avatarUrl={profile.avatarUrl}
          onDone={() => setOpen(false)}
        />
      )}
    </div>
  )
}
