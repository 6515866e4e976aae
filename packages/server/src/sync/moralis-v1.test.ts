import { createRequire } from 'node:module'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { getAddress } from 'viem'
import { generatePrivateKey } from 'viem/accounts'
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
    Moralis.User.enableUnsafeCurrentUser()
    await Moralis.start({ serverUrl: server.serverUrl, appId: 'portico' })
  })
  afterAll(async () => {
    await Moralis.LiveQuery.close().catch(() => {})
    await Moralis.User.logOut().catch(() => {})
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

  it('compares and sorts uint256 values as numbers through the field and its _decimal, live too', async () => {
    const to = '0x00000000000000000000000000000000000000b2'
    const values = [9n, 10n, 2n ** 53n + 1n, 2n ** 53n + 2n]
    for (const value of values) await emitter.send('mint', [getAddress(to), value])
    await emitter.send('mintMany', [getAddress(to), 3n, 10n ** 30n])
    await emitter.send('mintMany', [getAddress(to), 3n, 2n ** 256n - 3n])
    const all = [...values, ...[0n, 1n, 2n].map((n) => 10n ** 30n + n)]
    all.push(...[2n, 1n, 0n].map((n) => 2n ** 256n - 1n - n))
    const mine = () => new Moralis.Query('Activity').equalTo('to', to).limit(100)
    const read = async (query: { find(): Promise<{ get(k: string): string }[]> }) =>
      (await query.find()).map((row) => row.get('value'))
    await expect.poll(async () => (await read(mine())).length, { timeout: 20_000 }).toBe(10)

    const descending = await read(mine().descending('value_decimal'))
    expect(descending).toEqual([...all].reverse().map(String))
    expect(await read(mine().ascending('value'))).toEqual(all.map(String))
    const atLeast = (bound: bigint) => all.filter((v) => v >= bound).map(String)
    expect(
      await read(
        mine()
          .greaterThanOrEqualTo('value_decimal', String(10n ** 30n + 1n))
          .ascending('value'),
      ),
    ).toEqual(atLeast(10n ** 30n + 1n))
    expect(await read(mine().greaterThanOrEqualTo('value_decimal', 10).ascending('value'))).toEqual(
      atLeast(10n),
    )
    expect(await read(mine().greaterThan('value', '9').ascending('value_decimal'))).toEqual(
      atLeast(10n),
    )
    expect(
      await read(
        mine()
          .greaterThan('value', String(2n ** 53n + 1n))
          .lessThan('value_decimal', '1e30'),
      ),
    ).toEqual([String(2n ** 53n + 2n)])
    expect(
      await mine()
        .greaterThan('value_decimal', String(2n ** 256n - 3n))
        .count(),
    ).toBe(2)
    const row = (
      await mine()
        .equalTo('value', String(2n ** 256n - 1n))
        .find()
    )[0]
    expect(row.get('value_decimal').value.$numberDecimal).toBe(String(2n ** 256n - 1n))

    const live = mine().greaterThan('value_decimal', String(2n ** 53n))
    const subscription = await live.subscribe()
    const created: string[] = []
    subscription.on('create', (object: { get(k: string): string }) =>
      created.push(object.get('value')),
    )
    for (const value of [5n, 2n ** 53n + 5n, 2n ** 256n - 10n])
      await emitter.send('mint', [getAddress(to), value])
    await expect
      .poll(() => created, { timeout: 15_000 })
      .toEqual([String(2n ** 53n + 5n), String(2n ** 256n - 10n)])
    await subscription.unsubscribe()
  })

  it('refuses a signed-in user’s save and destroy of a synced row with 119', async () => {
    await Moralis.authenticate({
      provider: 'network',
      urls: { 1: 'http://127.0.0.1:9' },
      chainId: 1,
      privateKey: generatePrivateKey(),
    })
    const Activity = Moralis.Object.extend('Activity')
    const forged = new Activity()
    forged.set('to', recipient)
    forged.set('value', '1000000000000000000000')
    forged.set('transaction_hash', `0x${'ab'.repeat(32)}`)
    await expect(forged.save()).rejects.toMatchObject({ code: 119 })
    const [row] = await new Moralis.Query('Activity').equalTo('to', recipient).find()
    row.set('value', '1')
    await expect(row.save()).rejects.toMatchObject({ code: 119 })
    await expect(row.destroy()).rejects.toMatchObject({ code: 119 })
    await expect(Moralis.Object.saveAll([new Activity({ value: '2' })])).rejects.toMatchObject({
      code: 119,
    })
    const again = await new Moralis.Query('Activity').get(row.id)
    expect(again.get('value')).toBe((2n ** 255n).toString())
  })
})
