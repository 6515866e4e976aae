import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startAnvil, type Anvil } from '@portico/test-kit/anvil'
import { startFlakyProxy, type FlakyProxy } from '@portico/test-kit/flaky-proxy'
import type { DatabaseHandle } from '../db/client.ts'
import { databaseKinds, testDatabase } from '../../test/helpers.ts'
import { NodeClient } from './node-client.ts'
import { findReorg } from './reorg.ts'
import { keepBlocks } from './store.ts'

// Where a follower of a chain finds a reorg: from the block hashes it recorded, compared with
// what the node answers now. A node that fails to answer tells nothing about the chain.

describe.each(databaseKinds())('finding a reorg on %s', (kind) => {
  let anvil: Anvil
  let proxy: FlakyProxy
  let handle: DatabaseHandle
  let node: NodeClient
  let direct: NodeClient
  beforeAll(async () => {
    anvil = await startAnvil()
    proxy = await startFlakyProxy(anvil.url)
    handle = await testDatabase(kind)
    node = new NodeClient([proxy.url])
    direct = new NodeClient([anvil.url])
  })
  afterAll(async () => {
    await handle?.close()
    await proxy?.close()
    await anvil?.stop()
  })

  /** Records the node's current hashes of blocks 1 to `through` under `name`. */
  async function record(name: string, through: bigint) {
    const numbers = Array.from({ length: Number(through) }, (_, i) => BigInt(i + 1))
    await keepBlocks(handle.db, name, [...(await direct.blocks(numbers)).values()], 0n)
  }
  /** The proxy's next `count` requests answered 503 without reaching the node. */
  function failNext(count: number) {
    for (let i = 0; i < count; i++) proxy.faults[proxy.seen.length + i] = '503-before'
  }

  it('is a failed step when the node does not answer, never a reorg', async () => {
    await direct.call('anvil_mine', ['0x4'])
    await record('unanswered', 4n)
    expect(await findReorg(handle.db, node, 'unanswered')).toBeUndefined()

    failNext(1)
    await expect(findReorg(handle.db, node, 'unanswered')).rejects.toThrow(/HTTP 503/)

    // The newest recorded hash differs (a reorg may have begun), then the search's own call
    // fails: still an error, not a guess that drops every recorded block.
    await keepBlocks(handle.db, 'unanswered', [{ number: 4n, hash: `0x${'ab'.repeat(32)}` }], 0n)
    proxy.faults[proxy.seen.length + 1] = '503-before'
    await expect(findReorg(handle.db, node, 'unanswered')).rejects.toThrow(/HTTP 503/)

    // Answered again: the search finds the last block still on the chain.
    expect(await findReorg(handle.db, node, 'unanswered')).toBe(3n)
  })

  it('finds where blocks the node replaced begin', async () => {
    const snapshot = await direct.call<string>('evm_snapshot')
    const base = await direct.blockNumber()
    await direct.call('anvil_mine', ['0x3'])
    await record('replaced', base + 3n)
    await direct.call('evm_revert', [snapshot])
    // Different blocks at the same heights: a later timestamp gives them other hashes.
    await direct.call('evm_increaseTime', ['0x3c'])
    await direct.call('anvil_mine', ['0x3'])
    expect(await findReorg(handle.db, node, 'replaced')).toBe(base)
  })

  it('counts blocks the node no longer has as replaced', async () => {
    const snapshot = await direct.call<string>('evm_snapshot')
    const base = await direct.blockNumber()
    await direct.call('anvil_mine', ['0x2'])
    await record('dropped', base + 2n)
    await direct.call('evm_revert', [snapshot])
    expect(await findReorg(handle.db, node, 'dropped')).toBe(base)
  })
})
