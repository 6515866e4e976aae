import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { startMisbehavingNode, type MisbehavingNode } from '@portico/test-kit/misbehaving-node'
import { connectNode } from './connect-node.ts'

let gateway: MisbehavingNode
beforeAll(async () => {
  gateway = await startMisbehavingNode('ok')
})
afterAll(async () => {
  await gateway?.close()
})

describe('connectNode with speedyNodeApiKey', () => {
  it('calls the gateway at <gatewayUrl>/<chainId> with the key in x-api-key, for any chain', async () => {
    const client = connectNode({
      chainId: 1,
      speedyNodeApiKey: 'pk_test',
      gatewayUrl: `${gateway.url}/api/rpc/`,
    })
    expect(await client.getBlockNumber()).toBe(42n)
    expect(await client.switchChain(137).getBlockNumber()).toBe(42n)
    expect(gateway.seen.map((s) => s.path)).toEqual(['/api/rpc/1', '/api/rpc/137'])
    expect(gateway.seen.every((s) => s.headers['x-api-key'] === 'pk_test')).toBe(true)
    expect(gateway.seen[0]!.headers['x-portico-client']).toBe('sdk/1.5.9')
  })

  it('does not warn about the key outside a browser', () => {
    const onWarning = vi.fn()
    connectNode({ chainId: 1, speedyNodeApiKey: 'k', gatewayUrl: gateway.url, onWarning })
    expect(onWarning).not.toHaveBeenCalled()
  })

  it('prefers direct urls for the chains they cover and never sends them the key', async () => {
    const direct = await startMisbehavingNode('ok')
    try {
      const client = connectNode({
        chainId: 5,
        urls: { 5: direct.url },
        speedyNodeApiKey: 'pk_test',
        gatewayUrl: `${gateway.url}/api/rpc`,
      })
      await client.getBlockNumber()
      expect(direct.seen).toHaveLength(1)
      expect(direct.seen[0]!.headers['x-api-key']).toBeUndefined()
      expect(direct.seen[0]!.headers['x-portico-client']).toBeUndefined()
    } finally {
      await direct.close()
    }
  })

  it('batches when asked, matching the answers by id', async () => {
    const client = connectNode({
      chainId: 1,
      speedyNodeApiKey: 'k',
      gatewayUrl: `${gateway.url}/api/rpc`,
      batch: true,
    })
    const before = gateway.requests.length
    const [block, chain] = await Promise.all([
      client.getBlockNumber({ cacheTime: 0 }),
      client.getChainId(),
    ])
    expect([block, chain]).toEqual([42n, 31337])
    expect(gateway.requests.slice(before)).toHaveLength(1)
    expect(Array.isArray(gateway.requests.at(-1))).toBe(true)
  })
})
