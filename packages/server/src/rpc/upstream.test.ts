import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sendJson, startTestServer } from '@portico/test-kit/http-server'
import { startMisbehavingNode, type MisbehavingNode } from '@portico/test-kit/misbehaving-node'
import { UpstreamPool, UpstreamUnavailableError } from './upstream.ts'

let node: MisbehavingNode
let trickling: MisbehavingNode
beforeAll(async () => {
  ;[node, trickling] = await Promise.all([
    startMisbehavingNode('ok'),
    startMisbehavingNode('trickle'),
  ])
})
afterAll(async () => {
  await Promise.all([node?.close(), trickling?.close()])
})

describe('UpstreamPool', () => {
  it('sends the calls of one event-loop turn upstream as one batch, answering each', async () => {
    const pool = new UpstreamPool([node.url], { timeoutMs: 2_000, maxBatch: 2 })
    const before = node.requests.length
    const answers = await Promise.all([
      pool.request({ method: 'eth_chainId', params: [] }),
      pool.request({ method: 'eth_blockNumber', params: [] }),
      pool.request({ method: 'eth_chainId' }),
    ])
    expect(answers.map((a) => ('result' in a ? a.result : a.error))).toEqual([
      '0x7a69',
      '0x2a',
      '0x7a69',
    ])
    // Three calls, batches of at most two, none shared: one batch of two and one single call.
    expect(node.requests.slice(before).map((r) => (Array.isArray(r) ? r.length : 1))).toEqual([
      2, 1,
    ])
    pool.close()
  })

  it('sends identical shareable calls of one turn once, heavy calls alone, and every other call as it came', async () => {
    const pool = new UpstreamPool([node.url], {
      timeoutMs: 2_000,
      maxBatch: 20,
      shareable: (method) => method.startsWith('eth_get') || method === 'eth_blockNumber',
      alone: (method) => method === 'eth_getLogs',
    })
    const before = node.requests.length
    const calls = [
      { method: 'eth_blockNumber', params: [] },
      { method: 'eth_getBalance', params: ['0x01', 'latest'] },
      { method: 'eth_blockNumber' },
      { method: 'eth_getBalance', params: ['0x02', 'latest'] },
      { method: 'eth_getBalance', params: ['0x01', 'latest'] },
      { method: 'eth_getLogs', params: [{ fromBlock: '0x0' }] },
      { method: 'eth_sendRawTransaction', params: ['0xaa'] },
      { method: 'eth_sendRawTransaction', params: ['0xaa'] },
    ]
    const answers = await Promise.all(calls.map((call) => pool.request(call)))
    expect(answers.map((a) => ('result' in a ? a.result : a.error))).toEqual([
      '0x2a',
      null,
      '0x2a',
      null,
      null,
      null,
      null,
      null,
    ])
    // The logs call went alone (a single call, not a batch), the rest together.
    const sent = node.requests.slice(before) as (
      { method: string; params?: unknown[] }[] | object
    )[]
    expect(sent).toHaveLength(2)
    expect(sent[1]).toMatchObject({ method: 'eth_getLogs' })
    expect(
      (sent[0] as { method: string; params?: unknown[] }[]).map((c) => [c.method, c.params?.[0]]),
    ).toEqual([
      ['eth_blockNumber', undefined],
      ['eth_getBalance', '0x01'],
      ['eth_getBalance', '0x02'],
      ['eth_sendRawTransaction', '0xaa'],
      ['eth_sendRawTransaction', '0xaa'],
    ])
    pool.close()
  })

  it('has calls that arrive while an exchange is out wait for it and go together', async () => {
    // A node that holds its first answer until the test lets it go.
    const received: unknown[] = []
    let release = () => {}
    const held = new Promise<void>((resolve) => (release = resolve))
    const holding = await startTestServer(async ({ res, body }) => {
      const calls = JSON.parse(body.toString()) as { id: number }[] | { id: number }
      received.push(calls)
      if (received.length === 1) await held
      const answer = (call: { id: number }) => ({ jsonrpc: '2.0', id: call.id, result: '0x1' })
      sendJson(res, 200, Array.isArray(calls) ? calls.map(answer) : answer(calls))
    })
    const pool = new UpstreamPool([holding.url], {
      timeoutMs: 5_000,
      maxBatch: 20,
      maxWaitMs: 60_000,
    })
    const turn = () => new Promise((resolve) => setImmediate(resolve))
    const first = pool.request({ method: 'eth_chainId' })
    while (received.length === 0) await turn() // the first call is out
    const later: Promise<unknown>[] = []
    for (const method of ['eth_blockNumber', 'eth_gasPrice', 'net_version']) {
      later.push(pool.request({ method }))
      await turn()
    }
    expect(received).toHaveLength(1) // the three calls wait
    release()
    await Promise.all([first, ...later])
    // Three calls of three turns went in one exchange once the first came back.
    expect(received.map((r) => (Array.isArray(r) ? r.length : 1))).toEqual([1, 3])
    pool.close()
    await holding.close()
  })

  it('sends a waiting call after a short wait when the exchange out is slow', async () => {
    const slow = await startMisbehavingNode('no-answer')
    const pool = new UpstreamPool([slow.url], { timeoutMs: 1_000, maxWaitMs: 5 })
    const first = pool.request({ method: 'eth_getLogs' })
    await new Promise((resolve) => setImmediate(resolve))
    const second = pool.request({ method: 'eth_chainId' })
    await new Promise((resolve) => setTimeout(resolve, 500))
    // The second call did not wait for the first, which never comes back.
    expect(slow.requests).toHaveLength(2)
    await Promise.allSettled([first, second])
    pool.close()
    await slow.close()
  })

  it('rejects every call of a batch when no upstream answers', async () => {
    const pool = new UpstreamPool(['http://127.0.0.1:9'], { timeoutMs: 2_000, maxBatch: 20 })
    const outcomes = await Promise.allSettled([
      pool.request({ method: 'eth_chainId' }),
      pool.request({ method: 'eth_chainId' }),
    ])
    for (const outcome of outcomes) {
      expect(outcome.status).toBe('rejected')
      expect((outcome as PromiseRejectedResult).reason).toBeInstanceOf(UpstreamUnavailableError)
    }
    pool.close()
  })

  it('gives each attempt a deadline: an upstream that trickles bytes is left for the next', async () => {
    const failures: string[] = []
    const pool = new UpstreamPool([trickling.url, node.url], {
      timeoutMs: 600,
      onFailure: (f) => failures.push(f.reason),
    })
    const started = Date.now()
    const answer = await pool.request({ method: 'eth_chainId' })
    expect(answer).toMatchObject({ result: '0x7a69' })
    expect(failures).toEqual(['no-response'])
    // The trickle sends a byte every 200 ms: a socket idle time-out would never fire.
    expect(Date.now() - started).toBeLessThan(5_000)
    pool.close()
  })
})
