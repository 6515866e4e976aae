import { describe, expect, it } from 'vitest'
import { createMemoryStorage } from '@portico/test-kit/memory-storage'
import { createPortico } from './create-portico.ts'

// The effects around the pure reducer: session restore, sign-out that
// cannot reach the server, revoking the current session. The server is answered at the HTTP
// boundary here; the whole journey against the real server runs in e2e/wallet-sign-in.spec.ts.

const session = {
  user: { id: 'u1', address: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266' },
  session: { id: 's1', chainId: 31337, expiresAt: '2030-01-01T00:00:00.000Z' },
}
const error = (status: number, code: string) =>
  Response.json({ error: { code, message: code } }, { status })

function setup(routes: Record<string, () => Response | Promise<Response>>, hint = true) {
  const storage = createMemoryStorage(hint ? { 'portico.signedIn': '1' } : {})
  const memory = storage.values
  const calls: string[] = []
  const portico = createPortico({
    serverUrl: 'http://127.0.0.1:1',
    appId: 'test',
    chains: [],
    storage,
    fetch: async (url, init) => {
      const key = `${init.method} ${new URL(url).pathname}`
      calls.push(key)
      const route = routes[key]
      if (!route) throw new Error(`unexpected ${key}`)
      return route()
    },
  })
  return { portico, calls, memory }
}

describe('createPortico', () => {
  it('restores the server session on start', async () => {
    const { portico } = setup({ 'GET /api/auth/session': () => Response.json(session) })
    expect(portico.auth.get().status).toBe('undefined')
    await portico.start()
    expect(portico.auth.get()).toEqual({
      status: 'authenticated',
      user: {
        id: 'u1',
        address: session.user.address,
        chainId: 31337,
        sessionId: 's1',
        expiresAt: session.session.expiresAt,
      },
    })
  })

  it('a 401 on start means unauthenticated and forgets the hint', async () => {
    const { portico, memory } = setup({ 'GET /api/auth/session': () => error(401, 'unauthorized') })
    await portico.start()
    expect(portico.auth.get().status).toBe('unauthenticated')
    expect(memory.has('portico.signedIn')).toBe(false)
  })

  it('signs out locally even when the server refuses, and reports the failure', async () => {
    const { portico, calls } = setup({
      'GET /api/auth/session': () => Response.json(session),
      'POST /api/auth/logout': () => error(403, 'cross_origin_refused'),
    })
    await portico.start()
    const trail: string[] = []
    portico.auth.subscribe((state) => trail.push(state.status))
    await portico.signOut()
    expect(trail).toEqual(['logging_out', 'unauthenticated'])
    const state = portico.auth.get()
    expect(state.status === 'unauthenticated' && (state.error as { code?: string }).code).toBe(
      'cross_origin_refused',
    )
    expect(calls).toContain('POST /api/auth/logout')
  })

  it('revoking the current session leaves the user signed out', async () => {
    const { portico } = setup({
      'GET /api/auth/session': () => Response.json(session),
      'DELETE /api/auth/sessions/s1': () => new Response(null, { status: 204 }),
    })
    await portico.start()
    await portico.revokeSession('s1')
    expect(portico.auth.get()).toEqual({ status: 'unauthenticated', reason: 'session_gone' })
  })

  it('a 401 from a session call means the session is gone', async () => {
    const { portico } = setup({
      'GET /api/auth/session': () => Response.json(session),
      'GET /api/auth/sessions': () => error(401, 'unauthorized'),
    })
    await portico.start()
    await expect(portico.listSessions()).rejects.toMatchObject({ status: 401 })
    expect(portico.auth.get()).toEqual({ status: 'unauthenticated', reason: 'session_gone' })
  })

  it("linking and unlinking wallets keeps the signed-in user's addresses", async () => {
    const second = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
    const wallet = (address: string, primary: boolean) => ({
      address,
      linkedAt: '2030-01-01T00:00:00.000Z',
      primary,
    })
    const { portico } = setup({
      'GET /api/auth/session': () => Response.json(session),
      'POST /api/auth/link': () =>
        Response.json({
          wallets: [wallet(session.user.address, true), wallet(second, false)],
        }),
      [`DELETE /api/auth/wallets/${session.user.address}`]: () =>
        Response.json({ wallets: [wallet(second, true)] }),
    })
    await portico.start()
    const linked = await portico.linkWallet({ message: 'signed by the wallet', signature: '0x01' })
    expect(linked).toHaveLength(2)
    expect(portico.auth.get()).toMatchObject({
      status: 'authenticated',
      user: { address: session.user.address, addresses: [session.user.address, second] },
    })
    await portico.unlinkWallet(session.user.address as `0x${string}`)
    expect(portico.auth.get()).toMatchObject({
      status: 'authenticated',
      user: { address: second, addresses: [second] },
    })
  })

  it('uses the server RPC gateway for chains without a configured node URL', () => {
    const { portico } = setup({})
    expect(portico.nodeUrl(31337)).toBe('http://127.0.0.1:1/api/rpc/31337')
  })

  it('follows the other tabs: signed out there → signed out here; signed in there → here too', async () => {
    const storage = createMemoryStorage({ 'portico.signedIn': '1' })
    const target = new EventTarget()
    const tabWindow = Object.assign(target, { ethereum: undefined })
    const calls: string[] = []
    let signedIn = true
    const portico = createPortico({
      serverUrl: 'http://127.0.0.1:1',
      appId: 'test',
      chains: [],
      storage,
      window: tabWindow as never,
      injectedWaitMs: 0,
      fetch: async (url, init) => {
        calls.push(`${init.method} ${new URL(url).pathname}`)
        return signedIn ? Response.json(session) : error(401, 'unauthorized')
      },
    })
    await portico.start()
    expect(portico.auth.get().status).toBe('authenticated')

    // The other tab signed out: it removed the hint (and revoked the shared session).
    signedIn = false
    target.dispatchEvent(
      Object.assign(new Event('storage'), { key: 'portico.signedIn', newValue: null }),
    )
    expect(portico.auth.get()).toMatchObject({
      status: 'unauthenticated',
      reason: 'signed_out_elsewhere',
    })
    // Nothing to end on the server: the other tab did.
    expect(calls.filter((c) => c === 'POST /api/auth/logout')).toEqual([])

    signedIn = true
    target.dispatchEvent(
      Object.assign(new Event('storage'), { key: 'portico.signedIn', newValue: '1' }),
    )
    await expect.poll(() => portico.auth.get().status).toBe('authenticated')
  })
})
