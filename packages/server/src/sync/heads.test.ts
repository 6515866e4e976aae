import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { getAddress } from 'viem'
import { startAnvil, type Anvil } from '@portico/test-kit/anvil'
import { databaseKinds, testApp } from '../../test/helpers.ts'
import { rpcTestConfig } from '../../test/rpc.ts'
import { deployEmitter } from '../../test/sync.ts'

// With a WebSocket node the sync reads a block the moment the node announces it, not at its
// next poll: at the default `pollMs` (2 s) a mined event reaches a subscriber in a fraction of it.

const fixture = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../test/fixtures/sync-module.mjs',
)
const to = getAddress('0x00000000000000000000000000000000000000a7')

describe.each(databaseKinds())('new heads over a WebSocket node on %s', (kind) => {
  let anvil: Anvil
  beforeAll(async () => {
    anvil = await startAnvil()
  })
  afterAll(async () => {
    await anvil.stop()
  })

  it('delivers each mined event to a live subscriber well before the next poll', async () => {
    const emitter = await deployEmitter(anvil.url)
    process.env.SYNC_ADDRESS = emitter.address
    process.env.SYNC_CONFIRMATIONS = '1'
    process.env.SYNC_START_BLOCK = String(await emitter.wallet.getBlockNumber())
    process.env.SYNC_POLL_MS = '2000'
    const { app } = await testApp(kind, {
      rpc: rpcTestConfig({ 31337: [anvil.url] }),
      sync: { headUrls: new Map([[31337, anvil.url.replace('http', 'ws')]]) },
      functionsModule: fixture,
    })
    delete process.env.SYNC_POLL_MS
    await expect.poll(() => app.services.syncStatus()[0]?.mode).toBe('following')
    const arrived = new Map<string, number>()
    app.services.liveHub.add({
      className: 'Activity',
      viewerId: undefined,
      condition: undefined,
      send: (event, object) => {
        if (event === 'create') arrived.set(String(object.data.value), performance.now())
      },
    })
    const delays: number[] = []
    for (let i = 1n; i <= 6n; i++) {
      await emitter.send('mint', [to, i])
      const mined = performance.now()
      await expect.poll(() => arrived.has(String(i)), { timeout: 5_000, interval: 2 }).toBe(true)
      delays.push(arrived.get(String(i))! - mined)
    }
    // Polling every 2 s would average a second, and often take nearly two.
    expect(Math.max(...delays)).toBeLessThan(700)
  })
})
