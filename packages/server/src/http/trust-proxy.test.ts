import type { FastifyInstance } from 'fastify'
import { describe, expect, it } from 'vitest'
import { testApp } from '../../test/helpers.ts'
import { ConfigError, loadConfig } from '../config/server.ts'

// Behind a reverse proxy every connection comes from the proxy; TRUST_PROXY says which peers may
// name the real client in X-Forwarded-For. Anyone else's X-Forwarded-For is ignored.

const probe = (app: FastifyInstance) =>
  app.get('/probe/ip', async (request) => ({ ip: request.ip }))

describe('TRUST_PROXY', () => {
  it('reads addresses, CIDRs or a hop count, and names what is wrong', () => {
    expect(loadConfig({}).trustProxy).toBe(false)
    expect(loadConfig({ TRUST_PROXY: '10.0.0.1, 127.0.0.0/8, ::1' }).trustProxy).toEqual([
      '10.0.0.1',
      '127.0.0.0/8',
      '::1',
    ])
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2)
    expect(() => loadConfig({ TRUST_PROXY: 'proxy.example, 10.0.0.1/99' })).toThrow(ConfigError)
    expect(() => loadConfig({ TRUST_PROXY: 'proxy.example' })).toThrow(/"proxy\.example"/)
  })

  it('ignores X-Forwarded-For by default', async () => {
    const { app } = await testApp('pglite', {}, probe)
    const answer = await app.inject({
      url: '/probe/ip',
      remoteAddress: '127.0.0.1',
      headers: { 'x-forwarded-for': '203.0.113.9' },
    })
    expect(answer.json().ip).toBe('127.0.0.1')
  })

  it('takes the client address only from a trusted proxy', async () => {
    const { app } = await testApp('pglite', { trustProxy: ['127.0.0.1'] }, probe)
    const viaProxy = await app.inject({
      url: '/probe/ip',
      remoteAddress: '127.0.0.1',
      headers: { 'x-forwarded-for': '203.0.113.9' },
    })
    expect(viaProxy.json().ip).toBe('203.0.113.9')
    const spoofed = await app.inject({
      url: '/probe/ip',
      remoteAddress: '198.51.100.7',
      headers: { 'x-forwarded-for': '203.0.113.9' },
    })
    expect(spoofed.json().ip).toBe('198.51.100.7')
  })

  it('gives two clients behind the proxy separate sign-in limits', async () => {
    const { app } = await testApp('pglite', {
      trustProxy: ['127.0.0.1'],
      app: { ...loadConfig({}).app, authRateLimit: 3 },
    })
    const nonce = (client: string) =>
      app.inject({
        method: 'POST',
        url: '/api/auth/nonce',
        remoteAddress: '127.0.0.1',
        headers: { 'x-forwarded-for': client },
      })
    const first = []
    for (let i = 0; i < 4; i++) first.push((await nonce('203.0.113.2')).statusCode)
    expect(first).toEqual([200, 200, 200, 429])
    expect((await nonce('203.0.113.3')).statusCode).toBe(200)
  })
})
