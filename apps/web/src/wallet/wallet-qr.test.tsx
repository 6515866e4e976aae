// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { WalletQr } from './wallet-qr.tsx'

afterEach(cleanup)

describe('WalletQr', () => {
  it('draws the WalletConnect pairing URI as an SVG QR code', async () => {
    render(
      <WalletQr uri="wc:7f6e504bfad60b485450578e05678ed3e8e8c4751d3c6160be17160d63ec90f9@2?relay-protocol=irn&symKey=587d5484ce2a2a6ee3ba1962fdd7e8588e06200c46823bd18fbd67def96ad303" />,
    )
    const code = await screen.findByRole('img', { name: 'WalletConnect pairing QR code' })
    const svg = code.querySelector('svg')
    expect(svg).not.toBeNull()
    // A version-5+ code for a URI this long: many modules, drawn as one path of dark cells.
    expect(svg!.querySelector('path')?.getAttribute('d')?.length).toBeGreaterThan(1000)
    expect(screen.getByRole('button', { name: 'copy the link' })).toBeTruthy()
  })
})
