import { getAddress, isAddress } from 'viem'
import { Link } from 'wouter'
import { useAuth } from '@portico/react'
import { Identicon } from '../shell/identicon.tsx'
import { usePageParams } from '../shell/page-params.ts'

/** A public page per wallet address (`/u/:address`): the page table's example of a route parameter. */
export default function AddressPage() {
  const { address } = usePageParams<'/u/:address'>()
  const auth = useAuth()
  if (!isAddress(address, { strict: false })) {
    return (
      <section className="not-found" data-reveal>
        <h1>Not a wallet address</h1>
        <p>
          <code>{address}</code> is not an Ethereum address: it should be 0x followed by 40
          hexadecimal characters.
        </p>
        <p>
          <Link href="/">Back to the home page</Link>
        </p>
      </section>
    )
  }
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
