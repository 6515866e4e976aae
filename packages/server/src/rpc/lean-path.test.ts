import http from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startAnvil, type Anvil } from '@portico/test-kit/anvil'
import { testApp } from '../../test/helpers.ts'
import { rpcTestConfig } from '../../test/rpc.ts'
import { createApiKey } from './api-keys.ts'

// The gateway's lean path (a key, a JSON body of known length) must answer exactly as the
// Fastify route does: the same request sent chunked goes through the route, so each case is
// sent both ways over a real socket and the answers compared.

let anvil: Anvil
beforeAll(async () => {
  anvil = await startAnvil()
})
afterAll(() => anvil?.stop())

interface Answer {
  status: number
  headers: http.IncomingHttpHeaders
  body: unknown
}

function post(
  url: string,
  body: string,
  headers: Record<string, string>,
  chunked: boolean,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      url,
      {
        method: 'POST',
        headers: chunked
          ? { ...headers, 'transfer-encoding': 'chunked' }
          : { ...headers, 'content-length': String(Buffer.byteLength(body)) },
      },
      (response) => {
        let text = ''
        response.setEncoding('utf8')
        response.on('data', (chunk) => (text += chunk))
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: text ? JSON.parse(text) : undefined,
          }),
        )
      },
    )
    request.on('error', reject)
    if (chunked) {
      // Two chunks, so nothing could mistake it for a body of known length.
      request.write(body.slice(0, 3))
      request.end(body.slice(3))
    } else request.end(body)
  })
}

// What an API answer needs to stay inert (the lean path leaves out the headers for documents).
const safetyHeaders = [
  'content-security-policy',
  'x-content-type-options',
  'x-frame-options',
  'content-type',
] as const

describe('the RPC gateway lean path', () => {
  it('answers every case as the route does, without going through Fastify', async () => {
    let throughFastify = 0
    const { app, database } = await testApp(
      'pglite',
      { rpc: rpcTestConfig({ 31337: [anvil.url] }, { rateLimitPerKey: 20 }), metricsToken: 't' },
      (app) =>
        app.addHook('onRequest', async (request) => {
          if (request.url.startsWith('/api/rpc/')) throughFastify++
        }),
    )
    const { key } = await createApiKey(database.db, 'lean')
    const base = await app.listen({ host: '127.0.0.1', port: 0 })
    const json = { 'content-type': 'application/json', 'x-api-key': key }
    const call = (method: string, id: unknown = 1) =>
      JSON.stringify({ jsonrpc: '2.0', id, method, params: [] })
    const cases: [string, string, Record<string, string>][] = [
      ['one call', call('eth_chainId', 7), json],
      ['a batch', `[${call('eth_chainId', 1)},${call('eth_blockNumber', 'b')}]`, json],
      ['a method not served', call('eth_sign'), json],
      ['a notification', JSON.stringify({ jsonrpc: '2.0', method: 'eth_chainId' }), json],
      ['not JSON', '{"jsonrpc":', json],
      ['a number, not a request', '42', json],
      ['prototype poisoning', '{"__proto__":{"x":1},"jsonrpc":"2.0"}', json],
      ['a wrong key', call('eth_chainId'), { ...json, 'x-api-key': 'pk_wrong' }],
      ['an unserved chain', call('eth_chainId'), json],
    ]
    for (const [name, body, headers] of cases) {
      const url = `${base}/api/rpc/${name === 'an unserved chain' ? 5 : 31337}`
      const before = throughFastify
      const lean = await post(url, body, headers, false)
      expect(throughFastify, `${name}: the lean path answered it`).toBe(before)
      const route = await post(url, body, headers, true)
      expect(throughFastify, `${name}: the route answered it`).toBe(before + 1)
      expect(lean.status, name).toBe(route.status)
      if (name === 'a number, not a request') {
        // The route's message is its schema validator's; the JSON-RPC error code is the same.
        expect(lean.body).toMatchObject({ error: { code: -32600 } })
        expect(route.body).toMatchObject({ error: { code: -32600 } })
      } else {
        expect(lean.body, name).toEqual(route.body)
      }
      for (const header of safetyHeaders) {
        if (name === 'a notification') continue // 204: no body, no type
        expect(lean.headers[header], `${name}: ${header}`).toBeTruthy()
        expect(lean.headers[header], `${name}: ${header}`).toBe(route.headers[header])
      }
      expect(lean.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/)
    }
    expect(cases.length).toBe(9)

    // The key's limit (20 calls a minute) is one budget for both paths: a fresh key, ten calls
    // each way, then the next is refused on either. Counted in minute windows, so the sequence
    // is started well inside one.
    const fresh = { ...json, 'x-api-key': (await createApiKey(database.db, 'limit')).key }
    if (new Date().getSeconds() >= 55) await new Promise((resolve) => setTimeout(resolve, 6_000))
    for (let i = 0; i < 10; i++) {
      expect((await post(`${base}/api/rpc/31337`, call('eth_chainId'), fresh, false)).status).toBe(
        200,
      )
      expect((await post(`${base}/api/rpc/31337`, call('eth_chainId'), fresh, true)).status).toBe(
        200,
      )
    }
    for (const chunked of [false, true]) {
      const refused = await post(`${base}/api/rpc/31337`, call('eth_chainId'), fresh, chunked)
      expect(refused.status).toBe(429)
      expect(refused.body).toMatchObject({ error: { code: -32005 } })
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0)
    }

    // Both paths are in the metrics, under the route's name.
    const metrics = await app.inject({
      url: '/api/metrics',
      headers: { authorization: 'Bearer t' },
    })
    const served = metrics.body
      .split('\n')
      .filter((line) =>
        line.startsWith(
          'portico_http_request_duration_seconds_count{route="/api/rpc/:chainId",method="POST",status="200"}',
        ),
      )
    expect(served).toHaveLength(1)
    // Three cases answered 200 (one call, a batch, a method not served), each both ways, and
    // the twenty calls within the limit.
    expect(Number(served[0]!.split(' ').at(-1))).toBe(26)
  })
})
