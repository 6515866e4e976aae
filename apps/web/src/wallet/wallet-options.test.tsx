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
