import { afterAll, beforeAll, describe, expect, it } from 'vitest'
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
    const pool = new UpstreamPool([node.url], 2_000, undefined, 2)
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
    // Three calls, batches of at most two: one batch of two and one single call.
    expect(node.requests.slice(before).map((r) => (Array.isArray(r) ? r.length : 1))).toEqual([
      2, 1,
    ])
    pool.close()
  })

  it('rejects every call of a batch when no upstream answers', async () => {
    const pool = new UpstreamPool(['http://127.0.0.1:9'], 2_000, undefined, 20)
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
    const pool = new UpstreamPool([trickling.url, node.url], 600, (f) => failures.push(f.reason))
    const started = Date.now()
    const answer = await pool.request({ method: 'eth_chainId' })
    expect(answer).toMatchObject({ result: '0x7a69' })
    expect(failures).toEqual(['no-response'])
    // The trickle sends a byte every 200 ms: a socket idle time-out would never fire.
    expect(Date.now() - started).toBeLessThan(5_000)
    pool.close()
  })
})
