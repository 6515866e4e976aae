// @vitest-environment happy-dom
import { act, cleanup, render, screen } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { createPortico } from '@portico/sdk/portico'
import { createMemoryStorage } from '@portico/test-kit/memory-storage'
import { PorticoProvider } from './portico-provider.ts'
import { useAuth } from './use-auth.ts'
import { useWallet } from './use-wallet.ts'

function Probe() {
  const auth = useAuth()
  const wallet = useWallet()
  return (
    <p>
      {auth.status} {String(auth.isAuthenticated)} {wallet.status} {wallet.connectors.length}
    </p>
  )
}

afterEach(cleanup)

describe('useAuth and useWallet', () => {
  it('follow the client: undefined until started, then unauthenticated without a server call', async () => {
    const requests: string[] = []
    const portico = createPortico({
      serverUrl: 'http://127.0.0.1:1',
      appId: 'test',
      chains: [],
      storage: createMemoryStorage(),
      fetch: async (url) => {
        requests.push(url)
        throw new Error('no server in this test')
      },
    })
    render(
      <PorticoProvider portico={portico}>
        <Probe />
      </PorticoProvider>,
    )
    expect(screen.getByText('undefined false idle 0')).toBeTruthy()
    await act(() => portico.start())
    expect(screen.getByText('unauthenticated false idle 0')).toBeTruthy()
    // This browser never signed in: the session is not even asked for.
    expect(requests).toEqual([])
  })

  it('ask the server when this browser signed in before, and show the restored user', async () => {
    const portico = createPortico({
      serverUrl: 'http://127.0.0.1:1',
      appId: 'test',
      chains: [],
      storage: createMemoryStorage({ 'portico.signedIn': '1' }),
      fetch: async () =>
        Response.json({
          user: { id: 'u1', address: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266' },
          session: { id: 's1', chainId: 31337, expiresAt: '2030-01-01T00:00:00.000Z' },
        }),
    })
    render(
      <PorticoProvider portico={portico}>
        <Probe />
      </PorticoProvider>,
    )
    await act(() => portico.start())
    expect(screen.getByText('authenticated true idle 0')).toBeTruthy()
  })

  it('throw a clear error outside the provider', () => {
    expect(() => render(<Probe />)).toThrow('usePortico must be used inside <PorticoProvider>')
  })
})
