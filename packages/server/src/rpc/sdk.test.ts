import { Writable } from 'node:stream'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FastifyInstance } from 'fastify'
import { parseEther, parseGwei } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { connectNode } from '@portico/sdk/rpc'
import { ErrorResponseError } from '@portico/sdk/errors'
import { anvilAccount, anvilChainId, startAnvil, type Anvil } from '@portico/test-kit/anvil'
import { databaseKinds, signedIn, testApp, testConfig, testDatabase } from '../../test/helpers.ts'
import { SESSION_COOKIE } from '../auth/sessions.ts'
import { rpcTestConfig } from '../../test/rpc.ts'
import { buildServer } from '../app.ts'

let anvil: Anvil
beforeAll(async () => {
  anvil = await startAnvil()
})
afterAll(async () => {
  await anvil?.stop()
})

async function listen(app: FastifyInstance): Promise<string> {
  await app.listen({ host: '127.0.0.1', port: 0 })
  const address = app.server.address()
  if (!address || typeof address === 'string') throw new Error('not listening')
  return `http://127.0.0.1:${address.port}`
}

describe.each(databaseKinds())('the SDK through the gateway on %s', (kind) => {
  let app: FastifyInstance
  let base: string
  // In a hook: a fresh database can take long to make on a busy machine (hook time-out is larger).
  beforeAll(async () => {
    ;({ app } = await testApp(kind, { rpc: rpcTestConfig({ [anvilChainId]: [anvil.url] }) }))
    base = await listen(app)
  })

  it('reads and sends a mined raw transaction with speedyNodeApiKey', async () => {
    const { key } = await app.services.people.createApiKey('sdk')
    const client = connectNode({
      chainId: anvilChainId,
      speedyNodeApiKey: key,
      gatewayUrl: `${base}/api/rpc`,
    })

    expect(await client.getChainId()).toBe(anvilChainId)
    expect(await client.getBlockNumber()).toBeGreaterThanOrEqual(0n)
    const account = privateKeyToAccount(anvilAccount.privateKey)
    expect(await client.getBalance({ address: account.address })).toBeGreaterThan(parseEther('1'))

    const to = '0x000000000000000000000000000000000000cafe'
    const before = await client.getBalance({ address: to })
    const hash = await client.sendRawTransaction({
      serializedTransaction: await account.signTransaction({
        chainId: anvilChainId,
        to,
        value: parseEther('1'),
        nonce: await client.getTransactionCount({ address: account.address }),
        gas: 21_000n,
        maxFeePerGas: parseGwei('20'),
        maxPriorityFeePerGas: parseGwei('1'),
      }),
    })
    expect((await client.waitForTransactionReceipt({ hash, pollingInterval: 20 })).status).toBe(
      'success',
    )
    expect(await client.getBalance({ address: to })).toBe(before + parseEther('1'))
  })

  it('a wrong key reaches the SDK as Error response [401] Unauthorized', async () => {
    const client = connectNode({
      chainId: anvilChainId,
      speedyNodeApiKey: 'pk_wrong',
      gatewayUrl: `${base}/api/rpc`,
    })
    const error = await client.getBlockNumber().catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ErrorResponseError)
    expect((error as ErrorResponseError).shortMessage).toBe('Error response [401] Unauthorized')
  })
})

describe.each(databaseKinds())('a signed-in user on %s', (kind) => {
  let app: FastifyInstance
  beforeAll(async () => {
    ;({ app } = await testApp(kind, { rpc: rpcTestConfig({ [anvilChainId]: [anvil.url] }) }))
  })

  it('uses the gateway without a key, by bearer token or session cookie', async () => {
    const { token, headers } = await signedIn(app)
    const payload = { jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }
    const url = `/api/rpc/${anvilChainId}`
    const byBearer = await app.inject({ method: 'POST', url, headers, payload })
    expect(byBearer.json()).toEqual({ jsonrpc: '2.0', id: 1, result: '0x7a69' })
    const byCookie = await app.inject({
      method: 'POST',
      url,
      cookies: { [SESSION_COOKIE]: token },
      payload,
    })
    expect(byCookie.statusCode).toBe(200)
    const crossSite = await app.inject({
      method: 'POST',
      url,
      cookies: { [SESSION_COOKIE]: token },
      headers: { origin: 'https://evil.example' },
      payload,
    })
    expect(crossSite.statusCode).toBe(403)
    expect(crossSite.json()).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: 4100 } })
    const expired = await app.inject({
      method: 'POST',
      url,
      headers: { authorization: 'Bearer nope' },
      payload,
    })
    expect(expired.statusCode).toBe(401)
  })
})

describe('gateway rate limits and logs', () => {
  it('limits each key, answering 429 with Retry-After and a JSON-RPC error', async () => {
    const { app } = await testApp('pglite', {
      rpc: rpcTestConfig({ [anvilChainId]: [anvil.url] }, { rateLimitPerKey: 3 }),
    })
    const [a, b] = [
      await app.services.people.createApiKey('a'),
      await app.services.people.createApiKey('b'),
    ]
    const send = (key: string) =>
      app.inject({
        method: 'POST',
        url: `/api/rpc/${anvilChainId}`,
        headers: { 'x-api-key': key },
        payload: { jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] },
      })
    for (let i = 0; i < 3; i++) expect((await send(a.key)).statusCode).toBe(200)
    const limited = await send(a.key)
    expect(limited.statusCode).toBe(429)
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0)
    expect(limited.json()).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32005 } })
    expect((await send(b.key)).statusCode).toBe(200) // another key has its own budget
  })

  it('limits each caller address, with or without a key', async () => {
    const { app } = await testApp('pglite', {
      rpc: rpcTestConfig({ [anvilChainId]: [anvil.url] }, { rateLimitPerIp: 2 }),
    })
    const send = () => app.inject({ method: 'POST', url: `/api/rpc/${anvilChainId}`, payload: {} })
    expect((await send()).statusCode).toBe(401)
    expect((await send()).statusCode).toBe(401)
    expect((await send()).statusCode).toBe(429)
  })

  it('never writes upstream URLs or keys to the logs', async () => {
    const lines: string[] = []
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk))
        done()
      },
    })
    const database = await testDatabase('pglite')
    const app = await buildServer({
      config: testConfig({
        rpc: rpcTestConfig({
          1: ['http://user:PASSWORD@127.0.0.1:9/SECRET-KEY', 'http://127.0.0.1:9/OTHER-SECRET'],
        }),
      }),
      database,
      logger: { level: 'trace', stream },
    })
    try {
      const { key } = await app.services.people.createApiKey('logs')
      const answer = await app.inject({
        method: 'POST',
        url: '/api/rpc/1',
        headers: { 'x-api-key': key },
        payload: { jsonrpc: '2.0', id: 1, method: 'eth_chainId' },
      })
      expect(answer.statusCode).toBe(502)
      const logs = lines.join('')
      expect(logs).toContain('rpc upstream attempt failed')
      expect(logs + answer.body).not.toMatch(/SECRET|PASSWORD|127\.0\.0\.1:9/)
      expect(logs).not.toContain(key)
    } finally {
      await app.close()
      await database.close()
    }
  })
})
