import { useState, type ReactNode } from 'react'
import type { useWallet } from '@portico/react'
import type { WalletConnectorInfo } from '@portico/sdk/wallet'
import { recentFirst, walletApps, type WalletApp } from './wallet-apps.ts'
import { WalletAppIcon } from './wallet-icons.tsx'

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
 * One button per way to connect, the one used last first. A vendor the site has not set up is a
 * dead end for a visitor, so it is left out; in development (`showUnconfigured`) it is shown with
 * the setting it needs. Without a browser wallet, phones get links that open this page inside a
 * wallet app (where the wallet is a browser wallet), computers links to get an extension. What is
 * known shows at once: the search for browser wallets only fills in its own section.
 */
export function WalletOptions({
  wallet,
  disabled,
  onChoose,
  showUnconfigured = false,
  touch = false,
  recent,
  pageUrl,
  onOpenApp,
  injected = false,
}: {
  wallet: Wallet
  disabled: boolean
  onChoose(connectorId: string, email?: string): void
  showUnconfigured?: boolean
  /** A phone or tablet: offer wallet apps rather than extensions. */
  touch?: boolean
  /** The connector or wallet app chosen last on this browser. */
  recent?: string | undefined
  /** This page, as the wallet apps' links open it. */
  pageUrl?: URL | undefined
  onOpenApp?(id: WalletApp['id']): void
  /** A wallet is already on the page (`window.ethereum`): its code is still loading. */
  injected?: boolean
}) {
  const [email, setEmail] = useState('')
  const browser = recentFirst(
    wallet.connectors.filter((c) => c.kind === 'eip6963' || c.kind === 'injected'),
    (c) => c.id,
    recent,
  )
  const vendor = (kind: WalletConnectorInfo['kind']) =>
    wallet.connectors.find((c) => c.kind === kind && (c.configured || showUnconfigured))
  const walletConnect = vendor('walletConnect')
  const magic = vendor('magic')
  const social = vendor('web3auth')
  const searching = wallet.injectedSearch !== 'none' && wallet.injectedSearch !== 'found'
  const noneFound = browser.length === 0 && !searching
  const apps = recentFirst(walletApps, (app) => app.id, recent)
  const lastUsed = (id: string) =>
    id === recent ? <span className="last-used">Last used</span> : null

  return (
    <div className="wallet-options">
      {/* Inside a wallet app's browser the wallet is on the page: no links to the apps. */}
      {touch && browser.length === 0 && !injected && pageUrl && (
        <section aria-labelledby="wallet-apps">
          <h3 id="wallet-apps">Open in a wallet app</h3>
          <p className="muted small">
            Opens this page in the app&apos;s own browser, where you sign in. Without the app, the
            link offers to install it.
          </p>
          <ul className="wallet-list">
            {apps.map((app) => (
              <li key={app.id}>
                <a
                  className="wallet-button"
                  href={app.link(pageUrl)}
                  rel="noopener noreferrer"
                  onClick={() => onOpenApp?.(app.id)}
                >
                  <WalletAppIcon id={app.id} />
                  {app.name}
                  {lastUsed(app.id)}
                </a>
              </li>
            ))}
          </ul>
        </section>
      )}

      {(!touch || browser.length > 0 || injected) && (
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
                    {lastUsed(connector.id)}
                  </button>
                </li>
              ))}
            </ul>
          ) : noneFound ? (
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
            <p className="muted dialog-progress" role="status">
              <span className="spinner" aria-hidden="true" />
              Looking for browser wallets…
            </p>
          )}
        </section>
      )}

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

      <details className="wallet-help">
        <summary>What is a wallet?</summary>
        <p>
          A wallet is an app or browser extension that holds your keys. Here it proves that an
          address is yours by signing a short message: no password, no payment, and nothing leaves
          your wallet but the signature. The same wallet signs you in on any site that accepts one.
        </p>
      </details>
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
