import { sdkVersion } from '@portico/sdk/version'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { checkForNotice, sendEvent } from './beacon.ts'

// The network boundary (fetch) and the page's location are stubbed; everything else is real.
afterEach(() => vi.unstubAllGlobals())

function server(
  answer: (url: string, init: RequestInit) => Response,
  { referrer = '', userAgent = 'Mozilla/5.0 (X11; Linux x86_64) Chrome/130.0' } = {},
) {
  const calls: { url: string; init: RequestInit }[] = []
  vi.stubGlobal('location', { hostname: 'shop.example' })
  vi.stubGlobal('document', { referrer })
  vi.stubGlobal('navigator', { userAgent, maxTouchPoints: 0 })
  vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
    calls.push({ url, init })
    return answer(url, init)
  })
  return calls
}

describe('sendEvent', () => {
  it('posts the SDK wire format with the client header, kept alive', async () => {
    const calls = server(() => Response.json({ ok: true }, { status: 202 }))
    await sendEvent('page_view', { path: '/' })
    expect(calls[0]!.url).toBe('/api/events')
    expect(calls[0]!.init).toMatchObject({
      method: 'POST',
      keepalive: true,
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json', 'x-portico-client': `sdk/${sdkVersion}` },
    })
    expect(JSON.parse(calls[0]!.init.body as string)).toEqual({
      subdomain: 'shop.example',
      event: 'page_view',
      options: { path: '/', device: 'desktop' },
    })
  })

  it("tells a page view's referring site (host only, the page load's first view) and device", async () => {
    vi.resetModules()
    const { sendEvent: send } = await import('./beacon.ts')
    const calls = server(() => Response.json({ ok: true }, { status: 202 }), {
      referrer: 'https://news.example/item?id=42',
      userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) Mobile/15E148',
    })
    await send('page_view', { path: '/' })
    await send('page_view', { path: '/account' })
    await send('sign_in', { method: 'wallet' })
    const options = calls.map((call) => JSON.parse(call.init.body as string).options)
    expect(options).toEqual([
      { path: '/', referrer: 'news.example', device: 'mobile' },
      { path: '/account', device: 'mobile' },
      { method: 'wallet' },
    ])
  })

  it('leaves out a referrer on this site, and tells tablets apart', async () => {
    vi.resetModules()
    const { sendEvent: send } = await import('./beacon.ts')
    const calls = server(() => Response.json({ ok: true }, { status: 202 }), {
      referrer: 'https://shop.example/earlier',
      userAgent: 'Mozilla/5.0 (Linux; Android 14; SM-X710) Chrome/130.0 Safari/537.36',
    })
    await send('page_view', { path: '/' })
    expect(JSON.parse(calls[0]!.init.body as string).options).toEqual({
      path: '/',
      device: 'tablet',
    })
  })

  it('fails on an error status (the tracker reports it)', async () => {
    server(() => Response.json({ error: { code: 'rate_limited' } }, { status: 429 }))
    await expect(sendEvent('page_view', {})).rejects.toThrow('answered 429')
  })
})

describe('checkForNotice', () => {
  const version = (sdk: { latest: string; minimum: string }) =>
    server(() => Response.json({ server: '0.1.0', sdk }))

  it('is silent when this SDK is the latest', async () => {
    version({ latest: sdkVersion, minimum: '1.0.0' })
    expect(await checkForNotice(null)).toBeNull()
  })

  it('shows an outdated notice until that release is dismissed', async () => {
    const calls = version({ latest: '99.0.0', minimum: '1.0.0' })
    expect(await checkForNotice(null)).toEqual({
      kind: 'outdated',
      current: sdkVersion,
      latest: '99.0.0',
    })
    expect(await checkForNotice('99.0.0')).toBeNull()
    // A dismissal of an older release does not hide the next one.
    expect((await checkForNotice('98.0.0'))?.latest).toBe('99.0.0')
    expect(calls[0]!.url).toBe('/api/version')
  })

  it('always shows when this SDK is below the minimum', async () => {
    version({ latest: '99.1.0', minimum: '99.0.0' })
    expect((await checkForNotice('99.1.0'))?.kind).toBe('unsupported')
  })

  it('fails when the server cannot say', async () => {
    server(() => new Response('', { status: 503 }))
    await expect(checkForNotice(null)).rejects.toThrow('answered 503')
  })
})
