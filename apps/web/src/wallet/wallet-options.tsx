import { useState, type ReactNode } from 'react'
import type { useWallet } from '@portico/react'
import type { WalletConnectorInfo } from '@portico/sdk/wallet'

type Wallet = ReturnType<typeof useWallet>

/** Where to get a browser wallet, offered when none was found. */
export const walletDownloads = [
  { name: 'MetaMask', url: 'https://metamask.io/download/' },
  { name: 'Rabby', url: 'https://rabby.io/' },
  { name: 'Coinbase Wallet', url: 'https://www.coinbase.com/wallet/downloads' },
] as const

/** The build setting each vendor needs, named to developers only. */
const settingOf: Partial<Record<WalletConnectorInfo['kind'], string>> = {
  walletConnect: 'VITE_WALLETCONNECT_PROJECT_ID',
  magic: 'VITE_MAGIC_API_KEY',
  web3auth: 'VITE_WEB3AUTH_CLIENT_ID',
}

/**
 * One button per way to connect. A vendor the site has not set up is a dead end for a visitor,
 * so it is left out; in development (`showUnconfigured`) it is shown with the setting it needs.
 */
export function WalletOptions({
  wallet,
  disabled,
  onChoose,
  showUnconfigured = false,
}: {
  wallet: Wallet
  disabled: boolean
  onChoose(connectorId: string, email?: string): void
  showUnconfigured?: boolean
}) {
  const [email, setEmail] = useState('')
  const browser = wallet.connectors.filter((c) => c.kind === 'eip6963' || c.kind === 'injected')
  const vendor = (kind: WalletConnectorInfo['kind']) =>
    wallet.connectors.find((c) => c.kind === kind && (c.configured || showUnconfigured))
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
          <div className="notice" role="status">
            <p>
              No browser wallet found. Get one, then reload this page
              {walletConnect || magic || social ? ', or use one of the options below' : ''}.
            </p>
            <ul className="wallet-downloads" aria-label="Get a wallet">
              {walletDownloads.map((download) => (
                <li key={download.name}>
                  <a href={download.url} target="_blank" rel="noopener noreferrer">
                    Get {download.name}
                  </a>
                </li>
              ))}
            </ul>
          </div>
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
      {!connector.configured && (
        <p className="muted small">
          Not configured (development only): set {settingOf[connector.kind]} to offer it.
        </p>
      )}
    </section>
  )
}
