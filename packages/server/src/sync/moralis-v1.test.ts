import { createRequire } from 'node:module'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { getAddress } from 'viem'
import { startAnvil, type Anvil } from '@portico/test-kit/anvil'
import { databaseKinds } from '../../test/helpers.ts'
import { keepOnLoopback, listeningApp, type ListeningApp } from '../../test/compat.ts'
import { rpcTestConfig } from '../../test/rpc.ts'
import { deployEmitter } from '../../test/sync.ts'

// A v1 app reading a synced class as it read Moralis' "Sync and Watch" classes: the real
// moralis-v1 client queries and subscribes through the compatibility mount.

const require = createRequire(import.meta.url)
keepOnLoopback('moralis-v1/lib/node/RESTController.js')
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the v1 SDK ships loose types
const Moralis = require('moralis-v1/node') as any
const fixture = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../test/fixtures/sync-module.mjs',
)
const recipient = '0x00000000000000000000000000000000000000bb'

describe.each(databaseKinds())('moralis-v1 on a synced class on %s', (kind) => {
  let anvil: Anvil
  let server: ListeningApp
  let emitter: Awaited<ReturnType<typeof deployEmitter>>
  beforeAll(async () => {
    anvil = await startAnvil()
    emitter = await deployEmitter(anvil.url)
    await emitter.send('mint', [getAddress(recipient), 2n ** 255n])
    process.env.SYNC_ADDRESS = emitter.address
    process.env.SYNC_CONFIRMATIONS = '1'
    process.env.SYNC_START_BLOCK = '0'
    server = await listeningApp(kind, {
      rpc: rpcTestConfig({ 31337: [anvil.url] }),
      functionsModule: fixture,
    })
    await Moralis.start({ serverUrl: server.serverUrl, appId: 'portico' })
  })
  afterAll(async () => {
    await Moralis.LiveQuery.close().catch(() => {})
    Moralis.CoreManager.set('LIVEQUERY_SERVER_URL', null)
    Moralis.CoreManager.getLiveQueryController()._clearCachedDefaultClient()
    await anvil.stop()
  })

  it('queries rows with the v1 field names and gets new ones live', async () => {
    const query = new Moralis.Query('Activity')
    query.equalTo('confirmed', true)
    query.equalTo('to', recipient)
    query.descending('block_number')
    await expect.poll(async () => (await query.find()).length, { timeout: 20_000 }).toBe(1)
    const [row] = await query.find()
    expect(row.get('transaction_hash')).toMatch(/^0x[0-9a-f]{64}$/)
    expect(typeof row.get('block_number')).toBe('number')
    expect(row.get('block_timestamp')).toBeInstanceOf(Date)
    expect(row.get('address')).toBe(emitter.address.toLowerCase())
    expect(row.get('to')).toBe(recipient)
    expect(row.get('value')).toBe((2n ** 255n).toString())
    expect(row.get('value_decimal').value.$numberDecimal).toBe((2n ** 255n).toString())
    expect(row.get('chainId')).toBeUndefined()

    const live = new Moralis.Query('Activity')
    live.equalTo('to', recipient)
    const subscription = await live.subscribe()
    // The first row's own notification may still be on its way when the subscription starts
    // (rows are readable at commit; the change news follows), so wait for the new row's create.
    const created = new Promise<{ id: string; get(k: string): unknown }>((resolve) =>
      subscription.on('create', (object: { id: string; get(k: string): unknown }) => {
        if (object.id !== row.id) resolve(object)
      }),
    )
    await emitter.send('mint', [getAddress(recipient), 42n])
    const event = await created
    expect(event.get('value')).toBe('42')
    expect(event.get('log_index')).toBe(0)
    await subscription.unsubscribe()
  })
})
