import { useState, type ReactNode } from 'react'
import type { useWallet } from '@portico/react'
import type { WalletConnectorInfo } from '@portico/sdk/wallet'

type Wallet = ReturnType<typeof useWallet>

/** One button per way to connect; vendor connectors that are not set up say so. */
export function WalletOptions({
  wallet,
  disabled,
  onChoose,
}: {
  wallet: Wallet
  disabled: boolean
  onChoose(connectorId: string, email?: string): void
}) {
  const [email, setEmail] = useState('')
  const browser = wallet.connectors.filter((c) => c.kind === 'eip6963' || c.kind === 'injected')
  const vendor = (kind: WalletConnectorInfo['kind']) =>
    wallet.connectors.find((c) => c.kind === kind)
  const walletConnect = vendor('walletConnect')
  const magic = vendor('magic')
  const social = vendor('web3auth')

  if (wallet.status === 'idle' || wallet.status === 'loading') {
    return (
      <p role="status" className="dialog-progress">
        Loading wallets…
      </p>
    )
  }

  return (
    <div className="wallet-options">
      <section aria-labelledby="browser-wallets">
        <h3 id="browser-wallets">Browser wallets</h3>
        {browser.length > 0 ? (
          <ul className="wallet-list">
            {browser.map((connector) => (
              <li key={connector.id}>
                <button
                  type="button"
                  className="wallet-button"
                  disabled={disabled}
                  onClick={() => onChoose(connector.id)}
                >
                  {connector.icon ? (
                    <img src={connector.icon} alt="" width={28} height={28} />
                  ) : (
                    <span className="wallet-icon-placeholder" aria-hidden="true" />
                  )}
                  {connector.name}
                </button>
              </li>
            ))}
          </ul>
        ) : wallet.injectedSearch === 'none' ? (
          <p className="notice" role="status">
            No browser wallet found. Install a wallet extension (such as MetaMask or Rabby) and
            reload this page, or use one of the options below.
          </p>
        ) : (
          <p className="muted" role="status">
            Looking for browser wallets…
          </p>
        )}
      </section>

      {walletConnect && (
        <VendorOption id="wc-heading" title="Phone wallet" connector={walletConnect}>
          <button
            type="button"
            className="wallet-button"
            disabled={disabled}
            onClick={() => onChoose(walletConnect.id)}
          >
            WalletConnect (QR code)
          </button>
        </VendorOption>
      )}

      {magic && (
        <VendorOption id="email-heading" title="Email link" connector={magic}>
          <form
            className="email-form"
            onSubmit={(event) => {
              event.preventDefault()
              onChoose(magic.id, email)
            }}
          >
            <label>
              Email address
              <input
                type="email"
                required
                autoComplete="email"
                value={email}
                onChange={(event) => setEmail(event.target.value)}
              />
            </label>
            <button type="submit" className="wallet-button" disabled={disabled}>
              Email me a sign-in link
            </button>
          </form>
        </VendorOption>
      )}

      {social && (
        <VendorOption id="social-heading" title="Social login" connector={social}>
          <button
            type="button"
            className="wallet-button"
            disabled={disabled}
            onClick={() => onChoose(social.id)}
          >
            Continue with Google, Apple, X…
          </button>
        </VendorOption>
      )}
    </div>
  )
}

/** A hosted vendor's way to connect: its heading, its control, and whether the site set it up. */
function VendorOption({
  id,
  title,
  connector,
  children,
}: {
  id: string
  title: string
  connector: WalletConnectorInfo
  children: ReactNode
}) {
  return (
    <section aria-labelledby={id}>
      <h3 id={id}>{title}</h3>
      {children}
      {!connector.configured && <p className="muted small">Not configured on this site.</p>}
    </section>
  )
}
