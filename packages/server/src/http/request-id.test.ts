import { describe, expect, it } from 'vitest'
import { testApp } from '../../test/helpers.ts'
import { trustedPeer } from './request-id.ts'

// Every answer names its request id; a trusted proxy's X-Request-Id is kept, anyone else's not.

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

describe('request ids', () => {
  it('trusts only the configured proxies', () => {
    expect(trustedPeer(false, '127.0.0.1')).toBe(false)
    expect(trustedPeer(['10.0.0.0/8'], '10.1.2.3')).toBe(true)
    expect(trustedPeer(['10.0.0.0/8'], '::ffff:10.1.2.3')).toBe(true)
    expect(trustedPeer(['10.0.0.0/8'], '11.0.0.1')).toBe(false)
    expect(trustedPeer(['127.0.0.1', '::1'], '::1')).toBe(true)
    expect(trustedPeer(['127.0.0.1'], '127.0.0.2')).toBe(false)
    expect(trustedPeer(1, '203.0.113.1')).toBe(true)
  })

  it("answers with a new id, or a trusted proxy's own; never an untrusted caller's", async () => {
    const { app } = await testApp('pglite', { trustProxy: ['127.0.0.1'] })
    const ask = (remoteAddress: string, id?: string) =>
      app.inject({
        url: '/api/health',
        remoteAddress,
        ...(id ? { headers: { 'x-request-id': id } } : {}),
      })
    expect((await ask('127.0.0.1')).headers['x-request-id']).toMatch(uuid)
    expect((await ask('127.0.0.1', 'proxy-abc.123')).headers['x-request-id']).toBe('proxy-abc.123')
    expect((await ask('203.0.113.9', 'forged-id')).headers['x-request-id']).toMatch(uuid)
    expect((await ask('127.0.0.1', 'bad id with spaces')).headers['x-request-id']).toMatch(uuid)
    const errorAnswer = await app.inject({ url: '/api/nothing', remoteAddress: '127.0.0.1' })
    expect(errorAnswer.headers['x-request-id']).toMatch(uuid)
  })
})
