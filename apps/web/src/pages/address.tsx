import { useEffect } from 'react'
import { getAddress } from 'viem'
import { Link } from 'wouter'
import { useAuth } from '@portico/react'
import { useBackendClient } from '../backend/use-backend-client.ts'
import { useServerData } from '../backend/use-server-data.ts'
import { loadPublicProfile } from '../profile/profile-store.ts'
import { Avatar } from '../ui/identicon.tsx'
import { usePageParams } from '../shell/page-params.ts'
import { pageTitle } from '../site/site.ts'
import { AddressActions } from '../wallet/address-actions.tsx'
import { porticoConfigFromEnv } from '../wallet/config.ts'

/** The site's first chain: its explorer is where a visitor looks the address up. */
const siteChain = () =>
  typeof window === 'undefined'
    ? undefined
    : porticoConfigFromEnv(import.meta.env, window.location.origin).chains[0]?.id

/**
 * A public page per wallet address (`/u/:address`): the address with a copy button and the
 * explorer link of the site's chain where it has one, and its user's display name and avatar
 * when they made them public (the server decides what is public), the name also in the tab's
 * title. Anything but 0x and 40 hexadecimal characters is Not found (the page table's rule).
 */
export default function AddressPage() {
  const { address } = usePageParams<'/u/:address'>()
  const auth = useAuth()
  const checksummed = getAddress(address)
  const mine = auth.user?.address.toLowerCase() === checksummed.toLowerCase()
  const client = useBackendClient()
  const { state } = useServerData({
    key: ['profile', 'public', checksummed],
    read: (signal) => loadPublicProfile(client!, checksummed, signal),
    enabled: client !== undefined,
  })
  // Without the profile the page still shows what it is about, the address; the failure is
  // only worth a line in the console.
  const failure = state.status === 'error' ? state.error : undefined
  useEffect(() => {
    if (failure) console.warn('Portico: the public profile could not be read', failure)
  }, [failure])
  const shown = state.status === 'ready' ? state.data : undefined
  const name = shown?.displayName
  const avatarUrl = shown?.avatarUrl && client ? client.url(shown.avatarUrl) : undefined
  useEffect(() => {
    if (name) document.title = pageTitle(name)
  }, [name])
  return (
    <section id="address-intro" data-reveal>
      <h1 className="address-heading" aria-busy={state.status === 'loading' || undefined}>
        <Avatar address={checksummed} url={avatarUrl} size={avatarUrl ? 64 : 40} />
        <span data-testid="page-name">{name ?? 'Wallet'}</span>
      </h1>
      <p className="address" data-testid="page-address">
        {checksummed}
      </p>
      <AddressActions address={checksummed} chainId={siteChain()} />
      {mine && (
        <p data-testid="page-mine">
          This is your wallet. {shown && !name && !avatarUrl && 'Visitors see its address only. '}
          <Link href="/account">
            {shown && !name && !avatarUrl
              ? 'Show your name and avatar from your account'
              : 'Open your account'}
          </Link>
          .
        </p>
      )}
    </section>
  )
}
