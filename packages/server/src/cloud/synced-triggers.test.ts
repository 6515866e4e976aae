import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { getAddress } from 'viem'
import { startAnvil, type Anvil } from '@portico/test-kit/anvil'
import { ANY_OWNER } from '../objects/access.ts'
import { databaseKinds, testApp } from '../../test/helpers.ts'
import { rpcTestConfig } from '../../test/rpc.ts'
import { deployEmitter } from '../../test/sync.ts'

// Cloud code's triggers on a synced class, as Moralis v1 ran them: `afterSave` when an event
// arrives unconfirmed and again when it is confirmed, `afterDelete` when a reorg removes it.

const fixtures = path.resolve(import.meta.dirname, '../../test/fixtures')

describe.each(databaseKinds())('triggers on synced rows on %s', (kind) => {
  let anvil: Anvil
  let emitter: Awaited<ReturnType<typeof deployEmitter>>
  let server: Awaited<ReturnType<typeof testApp>>
  beforeAll(async () => {
    anvil = await startAnvil()
    emitter = await deployEmitter(anvil.url)
    process.env.SYNC_ADDRESS = emitter.address
    process.env.SYNC_CONFIRMATIONS = '3'
    process.env.SYNC_START_BLOCK = '0'
    server = await testApp(kind, {
      rpc: rpcTestConfig({ 31337: [anvil.url] }),
      functionsModule: path.join(fixtures, 'sync-module.mjs'),
      cloudCode: path.join(fixtures, 'cloud-synced'),
    })
    server.app.services.start()
  })
  afterAll(async () => {
    delete process.env.SYNC_CONFIRMATIONS
    await server?.close()
    await anvil?.stop()
  })

  const seen = async (row: string) => {
    const { results } = await server.app.services.objects.query(ANY_OWNER, 'Seen', {
      where: undefined,
      order: 'createdAt',
      limit: 100,
      skip: 0,
    })
    return results
      .filter((object) => object.data.row === row)
      .map((object) => [object.data.what, object.data.confirmed ?? null])
  }
  const rowOf = async (to: string) => {
    const { results } = await server.app.services.objects.query(ANY_OWNER, 'Activity', {
      where: undefined,
      limit: 100,
      skip: 0,
    })
    return results.find((object) => String(object.data.to).toLowerCase() === to)?.objectId
  }

  it('tells afterSave of the unconfirmed row, then of its confirmation', async () => {
    const to = '0x00000000000000000000000000000000000000c1'
    await emitter.send('mint', [getAddress(to), 5n])
    await expect.poll(() => rowOf(to), { timeout: 20_000 }).toBeTruthy()
    const row = (await rowOf(to))!
    await expect.poll(() => seen(row), { timeout: 20_000 }).toEqual([['create', false]])
    await emitter.testClient.mine({ blocks: 3 })
    await expect
      .poll(() => seen(row), { timeout: 20_000 })
      .toEqual([
        ['create', false],
        ['update', true],
      ])
  })

  it('tells afterDelete when a reorg removes a row', async () => {
    const to = '0x00000000000000000000000000000000000000c2'
    const snapshot = await emitter.testClient.snapshot()
    await emitter.send('mint', [getAddress(to), 7n])
    await expect.poll(() => rowOf(to), { timeout: 20_000 }).toBeTruthy()
    const row = (await rowOf(to))!
    await expect.poll(() => seen(row), { timeout: 20_000 }).toEqual([['create', false]])
    await emitter.testClient.revert({ id: snapshot })
    await emitter.testClient.mine({ blocks: 2 })
    await expect
      .poll(() => seen(row), { timeout: 20_000 })
      .toEqual([
        ['create', false],
        ['delete', null],
      ])
    expect(await rowOf(to)).toBeUndefined()
  })
})
