import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startAnvil, type Anvil } from '@portico/test-kit/anvil'
import { startFlakyProxy, type FlakyProxy } from '@portico/test-kit/flaky-proxy'
import { NodeClient } from '../sync/node-client.ts'
import { FinalHeaders, readRange } from './read-range.ts'

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

  it('asks the node for a final block header once, whichever address group needs it', async () => {
    const [sender] = await node.call<string[]>('eth_accounts', [])
    const receiver = '0x00000000000000000000000000000000000a11ce'
    await node.call('eth_sendTransaction', [{ from: sender, to: receiver, value: '0x1' }])
    const head = await node.blockNumber()
    const finalHeaders = new FinalHeaders()
    const read = () =>
      readRange(node, {
        addresses: [receiver],
        from: 0n,
        to: head,
        keepFrom: head + 1n,
        native: 'blocks',
        finalHeaders,
      })
    // Headers are asked without the blocks' transactions (`false`); the scan asks with them.
    const headerCalls = () =>
      (methods().match(/"eth_getBlockByNumber","params":\["0x[0-9a-f]+",false\]/g) ?? []).length
    proxy.seen.length = 0
    const first = await read()
    expect(first.transactions.map((row) => row.toAddress)).toEqual([receiver])
    expect(headerCalls()).toBeGreaterThan(0)
    proxy.seen.length = 0
    const again = await read()
    expect(headerCalls()).toBe(0)
    expect(again.headers.get(head)).toEqual(first.headers.get(head))
  })
})
