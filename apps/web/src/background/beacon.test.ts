import { sdkVersion } from '@portico/sdk/version'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { checkForNotice, sendEvent } from './beacon.ts'

// The network boundary (fetch) and the page's location are stubbed; everything else is real.
afterEach(() => vi.unstubAllGlobals())

function server(answer: (url: string, init: RequestInit) => Response) {
  const calls: { url: string; init: RequestInit }[] = []
  vi.stubGlobal('location', { hostname: 'shop.example' })
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
      options: { path: '/' },
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
