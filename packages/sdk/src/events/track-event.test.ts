// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest'
import { createBackendClient } from '../backend/client.ts'
import { trackEvent } from './track-event.ts'

describe('trackEvent', () => {
  it("sends the page's host name as subdomain", async () => {
    const seen: { url: string; body: string }[] = []
    const client = createBackendClient({
      serverUrl: 'http://127.0.0.1:1',
      appId: 'a',
      fetch: async (url, init) => {
        seen.push({ url, body: String(init.body) })
        return new Response('{"ok":true}', { status: 202 })
      },
    })
    ;(window as unknown as { happyDOM: { setURL(url: string): void } }).happyDOM.setURL(
      'https://shop.example.org/cart',
    )
    expect(await trackEvent(client, { event: 'page_view', options: { path: '/cart' } })).toBe(true)
    expect(seen[0]!.url).toBe('http://127.0.0.1:1/api/events')
    expect(JSON.parse(seen[0]!.body)).toEqual({
      subdomain: 'shop.example.org',
      event: 'page_view',
      options: { path: '/cart' },
    })
  })

  it('never throws into the app, whatever goes wrong', async () => {
    const client = createBackendClient({
      serverUrl: 'http://127.0.0.1:1',
      appId: 'a',
      attempts: 1,
      fetch: async () => {
        throw new TypeError('network down')
      },
    })
    expect(await trackEvent(client, { event: 'x' })).toBe(false)
    const circular: Record<string, unknown> = {}
    circular.self = circular
    expect(await trackEvent(client, { event: 'x', options: circular })).toBe(false)
  })
})
