import { gunzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FastifyInstance } from 'fastify'
import { parseEther, parseGwei, toHex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { anvilAccount, anvilChainId, startAnvil, type Anvil } from '@portico/test-kit/anvil'
import { startMisbehavingNode, type MisbehavingNode } from '@portico/test-kit/misbehaving-node'
import { databaseKinds, testApp } from '../../test/helpers.ts'
import { rpcTestConfig } from '../../test/rpc.ts'

let anvil: Anvil
let broken: MisbehavingNode
let reverting: MisbehavingNode
let counting: MisbehavingNode
let throttling: MisbehavingNode
beforeAll(async () => {
  ;[anvil, broken, reverting, counting, throttling] = await Promise.all([
    startAnvil(),
    startMisbehavingNode('destroy'),
    startMisbehavingNode('revert'),
    startMisbehavingNode('ok'),
    startMisbehavingNode('throttle'),
  ])
  throttling.retryAfter = '7'
})
afterAll(async () => {
  await Promise.all([
    anvil?.stop(),
    ...[broken, reverting, counting, throttling].map((node) => node?.close()),
  ])
})

const call = (method: string, params: unknown[] = [], id: unknown = 1) => ({
  jsonrpc: '2.0',
  id,
  method,
  params,
})

async function direct(method: string, params: unknown[] = []): Promise<unknown> {
  const response = await fetch(anvil.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(call(method, params)),
  })
  return ((await response.json()) as { result: unknown }).result
}

async function signedTransfer(nonce: number): Promise<`0x${string}`> {
  return privateKeyToAccount(anvilAccount.privateKey).signTransaction({
    chainId: anvilChainId,
    to: '0x000000000000000000000000000000000000bEEF',
    value: parseEther('0.25'),
    nonce,
    gas: 21_000n,
    maxFeePerGas: parseGwei('20'),
    maxPriorityFeePerGas: parseGwei('1'),
  })
}

describe.each(databaseKinds())('RPC gateway on %s', (kind) => {
  let app: FastifyInstance
  let key: string

  async function rpc(
    chainId: number | string,
    body: unknown,
    headers: Record<string, string> = { 'x-api-key': key },
  ) {
    const response = await app.inject({
      method: 'POST',
      url: `/api/rpc/${chainId}`,
      headers: { 'content-type': 'application/json', ...headers },
      payload: typeof body === 'string' ? body : JSON.stringify(body),
    })
    return {
      status: response.statusCode,
      headers: response.headers,
      body: response.body ? response.json() : undefined,
    }
  }

  beforeAll(async () => {
    ;({ app } = await testApp(kind, {
      rpc: rpcTestConfig(
        {
          [anvilChainId]: [anvil.url],
          1: [broken.url, anvil.url],
          5: [reverting.url, counting.url],
          7: [counting.url],
          9: [throttling.url],
          10: ['http://127.0.0.1:9/SECRET-PROVIDER-KEY', broken.url],
        },
        { maxBatch: 5 },
      ),
    }))
    ;({ key } = await app.services.people.createApiKey('tests'))
  })

  it('reads block number and balance, the same as anvil directly', async () => {
    const block = await rpc(anvilChainId, call('eth_blockNumber'))
    expect(block).toMatchObject({
      status: 200,
      body: { jsonrpc: '2.0', id: 1, result: await direct('eth_blockNumber') },
    })
    const balance = await rpc(
      anvilChainId,
      call('eth_getBalance', [anvilAccount.address, 'latest'], 'b'),
    )
    expect(balance.body).toEqual({
      jsonrpc: '2.0',
      id: 'b',
      result: await direct('eth_getBalance', [anvilAccount.address, 'latest']),
    })
  })

  it('sends a raw transaction that gets mined', async () => {
    const nonce = Number(await direct('eth_getTransactionCount', [anvilAccount.address, 'latest']))
    const sent = await rpc(
      anvilChainId,
      call('eth_sendRawTransaction', [await signedTransfer(nonce)]),
    )
    expect(sent.status).toBe(200)
    const hash = sent.body.result as string
    expect(hash).toMatch(/^0x[0-9a-f]{64}$/)
    // Anvil mines at once, but the receipt may appear a moment after the hash is returned.
    let receipt = await rpc(anvilChainId, call('eth_getTransactionReceipt', [hash]))
    for (let i = 0; i < 100 && receipt.body.result === null; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20))
      receipt = await rpc(anvilChainId, call('eth_getTransactionReceipt', [hash]))
    }
    expect(receipt.body.result).toMatchObject({ transactionHash: hash, status: '0x1' })
  })

  it('answers a batch in order, keeping each id, with per-call errors', async () => {
    const answer = await rpc(anvilChainId, [
      call('eth_chainId', [], 'a'),
      call('eth_sign', [anvilAccount.address, '0x00'], 'b'),
      { jsonrpc: '1.0', id: 'c', method: 'eth_chainId' },
      call('eth_blockNumber', [], 4),
    ])
    expect(answer.status).toBe(200)
    expect(answer.body.map((a: { id: unknown }) => a.id)).toEqual(['a', 'b', 'c', 4])
    expect(answer.body[0].result).toBe('0x7a69')
    expect(answer.body[1].error.code).toBe(-32601)
    expect(answer.body[2].error.code).toBe(-32600)
    expect(answer.body[3].result).toMatch(/^0x/)
  })

  it.each([
    ['unknown chain', () => rpc(424242, call('eth_chainId')), 404, 4901],
    ['unknown method', () => rpc(anvilChainId, call('anvil_mine')), 200, -32601],
    ['missing key', () => rpc(anvilChainId, call('eth_chainId'), {}), 401, 4100],
    [
      'wrong key',
      () => rpc(anvilChainId, call('eth_chainId'), { 'x-api-key': 'pk_nope' }),
      401,
      4100,
    ],
    [
      'oversized batch',
      () =>
        rpc(
          anvilChainId,
          Array.from({ length: 6 }, (_, i) => call('eth_chainId', [], i)),
        ),
      400,
      -32600,
    ],
    ['empty batch', () => rpc(anvilChainId, []), 400, -32600],
    ['malformed JSON', () => rpc(anvilChainId, '{"jsonrpc": "2.0", "id": 1,'), 400, -32700],
    ['not a request', () => rpc(anvilChainId, '42'), 400, -32600],
    ['bad chain id', () => rpc('mainnet', call('eth_chainId')), 400, -32600],
  ] as const)('%s → a clear JSON-RPC error, no 5xx', async (_name, send, status, code) => {
    const answer = await send()
    expect(answer.status).toBe(status)
    expect(answer.body).toMatchObject({ jsonrpc: '2.0', error: { code } })
    expect(answer.body.error.message.length).toBeGreaterThan(10)
  })

  it('a revoked key is refused', async () => {
    const revoked = await app.services.people.createApiKey('revoked')
    await app.services.people.revokeApiKey(revoked.id)
    expect(
      (await rpc(anvilChainId, call('eth_chainId'), { 'x-api-key': revoked.key })).status,
    ).toBe(401)
  })

  it('fails over to the next upstream when one fails', async () => {
    const before = broken.requests.length
    const answer = await rpc(1, call('eth_chainId'))
    expect(answer.body).toEqual({ jsonrpc: '2.0', id: 1, result: '0x7a69' })
    expect(broken.requests.length).toBe(before + 1)
  })

  it('does not fail over on a JSON-RPC error such as a revert', async () => {
    const before = counting.requests.length
    const answer = await rpc(
      5,
      call('eth_call', [{ to: anvilAccount.address, data: '0x' }, 'latest'], 'r'),
    )
    expect(answer.status).toBe(200)
    expect(answer.body).toEqual({
      jsonrpc: '2.0',
      id: 'r',
      error: { code: 3, message: 'execution reverted: not allowed', data: '0x' },
    })
    expect(counting.requests.length).toBe(before)
  })

  it('passes upstream throttling on as 429 with Retry-After', async () => {
    const answer = await rpc(9, call('eth_blockNumber'))
    expect(answer.status).toBe(429)
    expect(answer.headers['retry-after']).toBe('7')
    expect(answer.body.error.code).toBe(-32005)
  })

  it('when every upstream fails: 502 with a JSON-RPC error that names no upstream', async () => {
    const answer = await rpc(10, call('eth_blockNumber'))
    expect(answer.status).toBe(502)
    expect(answer.body.error.code).toBe(-32002)
    expect(JSON.stringify(answer)).not.toMatch(/SECRET|127\.0\.0\.1/)
  })

  it('answers nothing to notifications (calls without an id), but runs them', async () => {
    const alone = await rpc(anvilChainId, { jsonrpc: '2.0', method: 'eth_chainId' })
    expect(alone.status).toBe(204)
    const mixed = await rpc(anvilChainId, [
      { jsonrpc: '2.0', method: 'eth_chainId' },
      call('eth_chainId', [], 2),
    ])
    expect(mixed.body).toEqual([{ jsonrpc: '2.0', id: 2, result: '0x7a69' }])
  })

  it('gzips large answers for clients that accept it', async () => {
    // Init code that returns 20 KB of zeros (PUSH2 0x5000 PUSH1 0 RETURN): a 40 KB hex answer.
    const payload = JSON.stringify(call('eth_call', [{ data: '0x6150006000f3' }, 'latest']))
    const send = (headers: Record<string, string>) =>
      app.inject({
        method: 'POST',
        url: `/api/rpc/${anvilChainId}`,
        headers: { 'content-type': 'application/json', 'x-api-key': key, ...headers },
        payload,
      })
    const plain = await send({})
    expect(plain.headers['content-encoding']).toBeUndefined()
    expect(plain.json().result).toBe(`0x${'0'.repeat(40960)}`)
    const zipped = await send({ 'accept-encoding': 'gzip, br' })
    expect(zipped.headers['content-encoding']).toBe('gzip')
    expect(zipped.rawPayload.length).toBeLessThan(plain.rawPayload.length / 10)
    expect(JSON.parse(gunzipSync(zipped.rawPayload).toString('utf8'))).toEqual(plain.json())
  })

  it('caches eth_chainId and answers addressed by block hash', async () => {
    const hash = `0x${'ab'.repeat(32)}`
    const before = counting.requests.length
    for (let i = 0; i < 3; i++) {
      expect((await rpc(7, call('eth_chainId'))).body.result).toBe('0x7a69')
      await rpc(7, call('eth_getBlockByHash', [hash, false])) // null answers are not cached
      await rpc(7, call('eth_blockNumber')) // never cached
    }
    expect(counting.requests.length - before).toBe(1 + 3 + 3)

    const block = (await rpc(anvilChainId, call('eth_getBlockByNumber', ['latest', false]))).body
      .result
    const first = await rpc(anvilChainId, call('eth_getBlockByHash', [block.hash, false]))
    const second = await rpc(anvilChainId, call('eth_getBlockByHash', [block.hash, false], 'again'))
    expect(second.body).toEqual({ ...first.body, id: 'again' })
  })
})

describe.each(databaseKinds())('RPC gateway batches and call limits on %s', (kind) => {
  let app: FastifyInstance
  let key: string
  beforeAll(async () => {
    ;({ app } = await testApp(kind, {
      rpc: rpcTestConfig({ 7: [counting.url] }, { upstreamBatch: 20, rateLimitPerKey: 150 }),
    }))
    ;({ key } = await app.services.people.createApiKey('batches'))
  })
  const send = (body: unknown) =>
    app.inject({
      method: 'POST',
      url: '/api/rpc/7',
      headers: { 'content-type': 'application/json', 'x-api-key': key },
      payload: JSON.stringify(body),
    })

  it('sends a client batch upstream in batches of RPC_UPSTREAM_BATCH, and counts every call', async () => {
    const before = counting.requests.length
    // 95 distinct reads, and the head asked 5 times: identical reads go upstream once.
    const batch = [
      ...Array.from({ length: 95 }, (_, i) => call('eth_getBlockByNumber', [toHex(i), false], i)),
      ...Array.from({ length: 5 }, (_, i) => call('eth_blockNumber', [], 95 + i)),
    ]
    const first = await send(batch)
    expect(first.statusCode).toBe(200)
    expect(first.json().map((a: { id: number; result: string }) => [a.id, a.result])).toEqual(
      batch.map((c) => [c.id, c.method === 'eth_blockNumber' ? '0x2a' : null]),
    )
    const upstream = counting.requests.slice(before) as { method: string }[][]
    expect(upstream.map((r) => r.length)).toEqual([20, 20, 20, 20, 16])
    expect(upstream.flat().filter((c) => c.method === 'eth_blockNumber')).toHaveLength(1)

    // 100 calls of the 150 allowed per minute are spent: another batch of 100 is refused.
    const second = await send(batch)
    expect(second.statusCode).toBe(429)
    expect(second.json().error.message).toMatch(/150 calls per minute/)
    expect(Number(second.headers['retry-after'])).toBeGreaterThan(0)
    expect(counting.requests.length - before).toBe(5)
  })
})
