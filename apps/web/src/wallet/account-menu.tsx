import { useEffect, useId, useRef, useState } from 'react'
import { useLocation } from 'wouter'
import { Identicon } from '../shell/identicon.tsx'
import { shortAddress } from './config.ts'

import { AccountMenuPanel } from './account-menu-panel.tsx'

/**
 * The signed-in user in the header: identicon and short address on a button of fixed size, which
 * opens a small panel (full address with copy, Account, Sign out). Escape, a click outside and a
 * route change close it. Its code loads when a user is signed in, not with the first page.
 */
export default function AccountMenu({ address }: { address: string }) {
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
        aria-label={`Account menu, signed in as ${shortAddress(address)}`}
        onClick={() => setOpen(!open)}
      >
        <Identicon address={address} size={20} />
        <span className="address">{shortAddress(address)}</span>
      </button>
      {open && <AccountMenuPanel id={id} address={address} onDone={() => setOpen(false)} />}
    </div>
  )
}
