import { useState } from 'react'
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
        <section aria-labelledby="wc-heading">
          <h3 id="wc-heading">Phone wallet</h3>
          <button
            type="button"
            className="wallet-button"
            disabled={disabled}
            onClick={() => onChoose(walletConnect.id)}
          >
            WalletConnect (QR code)
          </button>
          {!walletConnect.configured && <NotConfigured />}
        </section>
      )}

      {magic && (
        <section aria-labelledby="email-heading">
          <h3 id="email-heading">Email link</h3>
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
          {!magic.configured && <NotConfigured />}
        </section>
      )}

      {social && (
        <section aria-labelledby="social-heading">
          <h3 id="social-heading">Social login</h3>
          <button
            type="button"
            className="wallet-button"
            disabled={disabled}
            onClick={() => onChoose(social.id)}
          >
            Continue with Google, Apple, X…
          </button>
          {!social.configured && <NotConfigured />}
        </section>
      )}
    </div>
  )
}

function NotConfigured() {
  return <p className="muted small">Not configured on this site.</p>
}
