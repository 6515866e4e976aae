import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startAnvil, type Anvil } from '@portico/test-kit/anvil'
import { startFlakyProxy, type FlakyProxy } from '@portico/test-kit/flaky-proxy'
import { NodeClient } from '../sync/node-client.ts'
import { readRange } from './read-range.ts'

// A range is read only when its last block is on the chain, and kept only when that block is
// still the same after the read: logs read while the head had moved back (a reorg) would be
// kept as a complete range, and no later reorg check would find them missing.

describe('reading a range of the address index', () => {
  let anvil: Anvil
  let proxy: FlakyProxy
  let node: NodeClient
  beforeAll(async () => {
    anvil = await startAnvil()
    proxy = await startFlakyProxy(anvil.url)
    node = new NodeClient([proxy.url])
  })
  afterAll(async () => {
    await proxy?.close()
    await anvil?.stop()
  })

  const methods = () => proxy.seen.map((request) => request.body).join('\n')

  it('does not read logs up to a block the node does not have yet', async () => {
    const head = await node.blockNumber()
    proxy.seen.length = 0
    await expect(
      readRange(node, { addresses: [], from: 0n, to: head + 1n, keepFrom: 0n, native: 'off' }),
    ).rejects.toThrow(`the node has no block ${head + 1n} yet`)
    expect(methods()).not.toContain('eth_getLogs')
  })

  it('reads a range whose last block is on the chain and stays there', async () => {
    await node.call('anvil_mine', ['0x2'])
    const head = await node.blockNumber()
    const content = await readRange(node, {
      addresses: [],
      from: 0n,
      to: head,
      keepFrom: 0n,
      native: 'off',
    })
    expect([...content.headers.keys()].at(-1)).toBe(head)
  })

  it('below the blocks a reorg can reach, reads without the extra check', async () => {
    const head = await node.blockNumber()
    proxy.seen.length = 0
    await readRange(node, { addresses: [], from: 0n, to: head, keepFrom: head + 1n, native: 'off' })
    expect(methods()).toContain('eth_getLogs')
    expect(methods()).not.toContain('eth_getBlockByNumber')
  })
})
