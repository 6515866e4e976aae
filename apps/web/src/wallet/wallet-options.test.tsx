// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import type { WalletConnectorInfo, WalletState } from '@portico/sdk/wallet'
import { WalletOptions } from './wallet-options.tsx'

afterEach(cleanup)

const vendors: WalletConnectorInfo[] = [
  { id: 'walletConnect', name: 'WalletConnect', kind: 'walletConnect', configured: true },
  { id: 'magic', name: 'Email link', kind: 'magic', configured: false },
  { id: 'web3auth', name: 'Social login', kind: 'web3auth', configured: false },
]

function wallet(connectors: WalletConnectorInfo[], injectedSearch: WalletState['injectedSearch']) {
  return { status: 'disconnected', connectors, injectedSearch } as unknown as Parameters<
    typeof WalletOptions
  >[0]['wallet']
}

describe('WalletOptions', () => {
  it('offers visitors only what the site set up: no dead ends, no setting names', () => {
    render(<WalletOptions wallet={wallet(vendors, 'found')} disabled={false} onChoose={() => {}} />)
    expect(screen.getByRole('heading', { name: 'Phone wallet' })).toBeTruthy()
    expect(screen.queryByRole('heading', { name: 'Email link' })).toBeNull()
    expect(screen.queryByRole('heading', { name: 'Social login' })).toBeNull()
    expect(document.body.textContent).not.toMatch(/VITE_/)
  })

  it('in development lists unconfigured vendors with the setting each needs', () => {
    render(
      <WalletOptions
        wallet={wallet(vendors, 'found')}
        disabled={false}
        onChoose={() => {}}
        showUnconfigured
      />,
    )
    expect(screen.getByRole('heading', { name: 'Social login' })).toBeTruthy()
    expect(document.body.textContent).toMatch(/set VITE_WEB3AUTH_CLIENT_ID to offer it/)
    expect(document.body.textContent).toMatch(/set VITE_MAGIC_API_KEY to offer it/)
  })

  it('without a browser wallet, offers links to get one', () => {
    render(<WalletOptions wallet={wallet([], 'none')} disabled={false} onChoose={() => {}} />)
    const links = screen.getByRole('list', { name: 'Get a wallet' }).querySelectorAll('a')
    expect([...links].map((a) => a.textContent)).toEqual([
      'Get MetaMask',
      'Get Rabby',
      'Get Coinbase Wallet',
    ])
    expect([...links].every((a) => a.rel === 'noopener noreferrer')).toBe(true)
    expect(document.body.textContent).not.toMatch(/options below/)
  })
})

describe('WalletOptions without a browser wallet on a phone', () => {
  const pageUrl = new URL('https://shop.example/account?tab=1')

  it("links to the wallet apps' browsers, the one used last first", () => {
    render(
      <WalletOptions
        wallet={wallet([], 'none')}
        disabled={false}
        onChoose={() => {}}
        touch
        recent="trust"
        pageUrl={pageUrl}
      />,
    )
    const links = [...document.querySelectorAll<HTMLAnchorElement>('.wallet-list a')]
    expect(links.map((a) => a.textContent)).toEqual([
      'Trust WalletLast used',
      'MetaMask',
      'Coinbase Wallet',
    ])
    expect(links.map((a) => a.href)).toEqual([
      'https://link.trustwallet.com/open_url?coin_id=60&url=https%3A%2F%2Fshop.example%2Faccount%3Ftab%3D1',
      'https://link.metamask.io/dapp/shop.example/account?tab=1',
      'https://go.cb-w.com/dapp?cb_url=https%3A%2F%2Fshop.example%2Faccount%3Ftab%3D1',
    ])
    // No extension to install on a phone: no "Get MetaMask" download list.
    expect(screen.queryByRole('list', { name: 'Get a wallet' })).toBeNull()
    expect(screen.getByText('What is a wallet?')).toBeTruthy()
  })

  it('lists browser wallets found, the one used last first, and no app links', () => {
    const found: WalletConnectorInfo[] = [
      { id: 'io.metamask', name: 'MetaMask', kind: 'eip6963', configured: true },
      { id: 'io.rabby', name: 'Rabby', kind: 'eip6963', configured: true },
    ]
    render(
      <WalletOptions
        wallet={wallet(found, 'found')}
        disabled={false}
        onChoose={() => {}}
        touch
        recent="io.rabby"
        pageUrl={pageUrl}
      />,
    )
    const buttons = [...document.querySelectorAll('.wallet-list button')]
    expect(buttons.map((b) => b.textContent)).toEqual(['RabbyLast used', 'MetaMask'])
    expect(screen.queryByRole('heading', { name: 'Open in a wallet app' })).toBeNull()
  })
})
