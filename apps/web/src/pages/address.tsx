import { getAddress } from 'viem'
import { Link } from 'wouter'
import { useAuth } from '@portico/react'
import { Identicon } from '../shell/identicon.tsx'
import { usePageParams } from '../shell/page-params.ts'

/**
 * A public page per wallet address (`/u/:address`): the page table's example of a route
 * parameter. Anything but 0x and 40 hexadecimal characters is Not found (the table's rule).
 */
export default function AddressPage() {
  const { address } = usePageParams<'/u/:address'>()
  const auth = useAuth()
  const checksummed = getAddress(address)
  const mine = auth.user?.address.toLowerCase() === checksummed.toLowerCase()
  return (
    <section id="address-intro" data-reveal>
      <h1 className="address-heading">
        <Identicon address={checksummed} size={40} />
        <span>Wallet</span>
      </h1>
      <p className="address" data-testid="page-address">
        {checksummed}
      </p>
      {mine && (
        <p>
          This is your wallet. <Link href="/account">Open your account</Link>.
        </p>
      )}
    </section>
  )
}
