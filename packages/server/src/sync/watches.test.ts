import { createRequire } from 'node:module'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { getAddress, type AbiEvent } from 'viem'
import { generatePrivateKey } from 'viem/accounts'
import { startAnvil, type Anvil } from '@portico/test-kit/anvil'
import { emitterAbi } from '@portico/test-kit/emitter'
import { freePort } from '@portico/test-kit/ports'
import { buildServer } from '../app.ts'
import { loadConfig } from '../config/server.ts'
import type { DatabaseHandle } from '../db/client.ts'
import { databaseKinds, signedIn, testConfig, testDatabase } from '../../test/helpers.ts'
import { keepOnLoopback } from '../../test/compat.ts'
import { rpcTestConfig } from '../../test/rpc.ts'
import { deployEmitter } from '../../test/sync.ts'
import { compileFilter } from './watch-filter.ts'
import { resolveChain } from './watch-params.ts'

// A Moralis v1 script registering its contract events with the real moralis-v1 client
// (`Cloud.run('watchContractEvent', …, { useMasterKey: true })`): the rows appear in the v1
// shape, the watch outlives a restart, is seen by a second process, and unwatching stops it.

const require = createRequire(import.meta.url)
keepOnLoopback('moralis-v1/lib/node/RESTController.js')
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the v1 SDK ships loose types
const Moralis = require('moralis-v1/node') as any
const MASTER = 'watch-master-key-for-tests'
const ADMIN = getAddress(`0x${'a2'.repeat(20)}`)
const VIEWER = getAddress(`0x${'b2'.repeat(20)}`)
const transfer = emitterAbi.find(
  (item) => item.type === 'event' && item.name === 'Transfer',
) as AbiEvent
const recipient = '0x00000000000000000000000000000000000000d1'
const options = (address: string, more: Record<string, unknown> = {}) => ({
  chainId: '1337',
  address: address.toLowerCase(),
  topic: 'Transfer(address, address, uint256)',
  abi: transfer,
  tableName: 'Minted',
  sync_historical: true,
  ...more,
})

describe.each(databaseKinds())('watchContractEvent from the moralis-v1 client on %s', (kind) => {
  let anvil: Anvil
  let database: DatabaseHandle & { url?: string }
  let emitter: Awaited<ReturnType<typeof deployEmitter>>
  let port: number
  const open: FastifyInstance[] = []

  const serve = async (listen = true) => {
    const app = await buildServer({
      config: testConfig({
        app: {
          ...loadConfig({ PORT: String(port) }).app,
          adminAddresses: [ADMIN],
          viewerAddresses: [VIEWER],
        },
        rpc: rpcTestConfig({ 31337: [anvil.url] }),
        compat: {
          mount: '/server',
          legacySignIn: true,
          masterKey: MASTER,
          masterKeyIps: ['127.0.0.1/8'],
        },
      }),
      database,
      logger: false,
    })
    open.push(app)
    if (listen) await app.listen({ host: '127.0.0.1', port })
    else await app.ready()
    return app
  }
  const close = async (app: FastifyInstance) => {
    open.splice(open.indexOf(app), 1)
    await app.close()
  }
  const run = (name: string, params: unknown, master = true) =>
    Moralis.Cloud.run(name, params, master ? { useMasterKey: true } : {})
  const rows = (className: string) =>
    new Moralis.Query(className).equalTo('to', recipient).ascending('block_number').limit(100)

  beforeAll(async () => {
    anvil = await startAnvil()
    database = await testDatabase(kind)
    emitter = await deployEmitter(anvil.url)
    port = await freePort()
    await emitter.send('mint', [getAddress(recipient), 7n])
    await serve()
    Moralis.User.enableUnsafeCurrentUser()
    await Moralis.start({
      serverUrl: `http://127.0.0.1:${port}/server`,
      appId: 'portico',
      masterKey: MASTER,
    })
  })
  afterAll(async () => {
    await Moralis.User.logOut().catch(() => {})
    for (const app of [...open]) await app.close()
    await database.close()
    await anvil.stop()
  })

  it('refuses a call without the master key, and address watches by name', async () => {
    await expect(run('watchContractEvent', options(emitter.address), false)).rejects.toMatchObject({
      code: 119,
      message: expect.stringContaining('master key'),
    })
    await expect(
      run('watchEthAddress', { address: recipient, sync_historical: true }),
    ).rejects.toMatchObject({ code: 141, message: expect.stringContaining('ADDRESS_INDEX_CHAINS') })
    await expect(
      run('watchContractEvent', options(emitter.address, { topic: 'Approval(address,uint256)' })),
    ).rejects.toMatchObject({ code: 141, message: expect.stringContaining('"topic"') })
    await expect(
      run('watchContractEvent', options(emitter.address, { filter: { in: ['to', []] } })),
    ).rejects.toMatchObject({
      code: 141,
      message: expect.stringContaining('"in" is not supported'),
    })
    await expect(
      run('watchContractEvent', options(emitter.address, { chainId: '0x1' })),
    ).rejects.toMatchObject({ code: 141, message: expect.stringContaining('RPC_URL_1') })
  })

  it('syncs the watched event into the table, in the v1 row shape, history and new events', async () => {
    expect(await run('watchContractEvent', options(emitter.address))).toEqual({ success: true })
    // History starts where the contract was made: the first transaction of a fresh anvil.
    expect(open[0]!.services.watches.list()).toMatchObject([
      {
        tableName: 'Minted',
        chainId: 31337,
        startBlock: '1',
        event: 'Transfer(address,address,uint256)',
      },
    ])
    await expect.poll(async () => (await rows('Minted').find()).length, { timeout: 20_000 }).toBe(1)
    await emitter.send('mint', [getAddress(recipient), 2n ** 255n])
    await expect.poll(async () => (await rows('Minted').find()).length, { timeout: 20_000 }).toBe(2)
    const [old, fresh] = await rows('Minted').find()
    expect(old.get('value')).toBe('7')
    expect(fresh.get('value')).toBe((2n ** 255n).toString())
    expect(fresh.get('value_decimal').value.$numberDecimal).toBe((2n ** 255n).toString())
    expect(fresh.get('transaction_hash')).toMatch(/^0x[0-9a-f]{64}$/)
    expect(typeof fresh.get('block_number')).toBe('number')
    expect(fresh.get('block_timestamp')).toBeInstanceOf(Date)
    expect(fresh.get('address')).toBe(emitter.address.toLowerCase())
    expect(fresh.get('from')).toBe('0x0000000000000000000000000000000000000000')
    expect(fresh.get('to')).toBe(recipient)
    expect(fresh.get('chainId')).toBeUndefined()
    await expect.poll(async () => (await rows('Minted').find())[1].get('confirmed')).toBe(true)

    // The same call again is a success; other options for the table are refused.
    expect(await run('watchContractEvent', options(emitter.address))).toEqual({ success: true })
    await expect(
      run('watchContractEvent', options(recipient, { sync_historical: false })),
    ).rejects.toMatchObject({ code: 141, message: expect.stringContaining('already watched') })
  })

  it('refuses a signed-in user’s write to a watched class', async () => {
    await Moralis.authenticate({
      provider: 'network',
      urls: { 1: 'http://127.0.0.1:9' },
      chainId: 1,
      privateKey: generatePrivateKey(),
    })
    const Minted = Moralis.Object.extend('Minted')
    await expect(new Minted({ to: recipient, value: '1' }).save()).rejects.toMatchObject({
      code: 119,
    })
    await Moralis.User.logOut()
  })

  it('starts from the head without history, and keeps only what the filter matches', async () => {
    expect(
      await run(
        'watchContractEvent',
        options(emitter.address, {
          chainId: 31337,
          tableName: 'BigMints',
          sync_historical: false,
          filter: { and: [{ gt: ['value_decimal', '100'] }, { eq: ['from', '0x0'] }] },
        }),
      ),
    ).toEqual({ success: true })
    await emitter.send('mint', [getAddress(recipient), 50n])
    await emitter.send('mint', [getAddress(recipient), 500n])
    await expect
      .poll(
        async () =>
          (await rows('BigMints').find()).map((row: { get(k: string): string }) =>
            row.get('value'),
          ),
        {
          timeout: 20_000,
        },
      )
      .toEqual(['500'])
  })

  it('lists the syncs in the console and removes a watch there', async () => {
    const app = open[0]!
    const admin = (await signedIn(app, ADMIN)).headers
    const viewer = (await signedIn(app, VIEWER)).headers
    const member = (await signedIn(app)).headers
    expect(
      await run('watchContractEvent', options(emitter.address, { tableName: 'Console' })),
    ).toEqual({ success: true })
    type Listed = {
      results: {
        name: string
        kind: string
        className: string
        writer: string
        rows: number
        blocksLeft: string | null
        mode: string | null
        events: string[]
      }[]
    }
    const list = async () =>
      (await app.inject({ url: '/api/admin/syncs', headers: viewer })).json<Listed>().results
    await expect
      .poll(async () => (await list()).find((sync) => sync.className === 'Console')?.rows, {
        timeout: 20_000,
      })
      .toBe(4)
    const listed = await list()
    expect(listed.map((sync) => sync.className)).toEqual(['Minted', 'BigMints', 'Console'])
    expect(listed[2]).toMatchObject({
      name: 'watch-Console',
      kind: 'watch',
      writer: 'this process',
      events: ['Transfer'],
    })
    expect((await app.inject({ url: '/api/admin/syncs', headers: member })).statusCode).toBe(403)
    const remove = (headers: Record<string, string>, table = 'Console') =>
      app.inject({ method: 'DELETE', url: `/api/admin/watches/${table}`, headers })
    expect((await remove(viewer)).statusCode).toBe(403)
    expect((await remove(admin)).statusCode).toBe(204)
    expect((await remove(admin)).statusCode).toBe(404)
    expect((await remove(admin, 'Not-a-class')).statusCode).toBe(400)
    expect((await list()).map((sync) => sync.className)).toEqual(['Minted', 'BigMints'])
  })

  it('keeps the watch over a restart, and unwatching stops it with its rows kept', async () => {
    await close(open[0]!)
    await serve()
    await emitter.send('mint', [getAddress(recipient), 9n])
    await expect.poll(async () => (await rows('Minted').find()).length, { timeout: 20_000 }).toBe(5)

    expect(await run('unwatchContractEvent', { tableName: 'Minted' })).toEqual({ success: true })
    await expect(run('unwatchContractEvent', { tableName: 'Minted' })).rejects.toMatchObject({
      code: 141,
      message: expect.stringContaining('No contract event is watched into Minted'),
    })
    await emitter.send('mint', [getAddress(recipient), 11n])
    await expect
      .poll(async () => (await rows('BigMints').find()).length, { timeout: 20_000 })
      .toBe(1)
    await emitter.send('mint', [getAddress(recipient), 1000n])
    // BigMints goes on (its row proves the chain was read past the mint of 11); Minted does not.
    await expect
      .poll(async () => (await rows('BigMints').find()).length, { timeout: 20_000 })
      .toBe(2)
    expect((await rows('Minted').find()).length).toBe(5)
    expect(open[0]!.services.watches.list().map((watch) => watch.tableName)).toEqual(['BigMints'])
  })

  it.runIf(kind === 'postgres')('is seen and removed on a second process', async () => {
    const second = await serve(false)
    expect(second.services.watches.list().map((watch) => watch.tableName)).toEqual(['BigMints'])
    expect(
      await run('watchContractEvent', options(emitter.address, { tableName: 'Later' })),
    ).toEqual({
      success: true,
    })
    await expect
      .poll(() => second.services.watches.list().map((watch) => watch.tableName), {
        timeout: 10_000,
      })
      .toEqual(['BigMints', 'Later'])
    // One of the two writes the chain's syncs.
    await expect
      .poll(() =>
        open.map((app) =>
          app.services
            .syncStatus()
            .filter((sync) => sync.writer)
            .map((sync) => sync.className)
            .sort(),
        ),
      )
      .toContainEqual(['BigMints', 'Later'])
    expect(await run('unwatchContractEvent', { tableName: 'Later' })).toEqual({ success: true })
    await expect
      .poll(() => second.services.syncStatus().map((sync) => sync.className), { timeout: 10_000 })
      .toEqual(['BigMints'])
    await close(second)
  })
})

describe('watch options', () => {
  it('maps v1 chain ids, "1337" included', () => {
    const anvil = new Map([[31337, []]])
    expect(resolveChain('0x7a69', anvil, undefined)).toBe(31337)
    expect(resolveChain('1337', anvil, undefined)).toBe(31337)
    expect(resolveChain(undefined, anvil, undefined)).toBe(31337)
    const two = new Map([
      [31337, []],
      [5555, []],
    ])
    expect(resolveChain('1337', two, 5555)).toBe(5555)
    expect(() => resolveChain(undefined, two, undefined)).toThrow('"chainId" is needed')
    const both = new Map([
      [31337, []],
      [1338, []],
    ])
    expect(resolveChain(1337, new Map([...both, [1337, []]]), undefined)).toBe(1337)
    expect(() => resolveChain('0x1', both, undefined)).toThrow('RPC_URL_1')
    expect(() => resolveChain('main', both, undefined)).toThrow('"chainId" is a chain id')
  })

  it('filters on v1 field names, integers and addresses by value', () => {
    const keep = compileFilter(
      {
        or: [
          { and: [{ eq: ['from', '0x0'] }, { gte: ['value_decimals', '10'] }] },
          { eq: ['to', '0x00000000000000000000000000000000000000AA'] },
        ],
      },
      transfer,
    )
    const zero = '0x0000000000000000000000000000000000000000'
    expect(keep({ from: zero, to: recipient, value: '10' })).toBe(true)
    expect(keep({ from: zero, to: recipient, value: '9' })).toBe(false)
    expect(keep({ from: recipient, to: getAddress(`0x${'00'.repeat(19)}aa`), value: '1' })).toBe(
      true,
    )
    expect(() => compileFilter({ gt: ['to', '1'] }, transfer)).toThrow('integer inputs only')
    expect(() => compileFilter({ eq: ['price', '1'] }, transfer)).toThrow('not an input')
    expect(() => compileFilter({ eq: ['value', 'ten'] }, transfer)).toThrow('is not a uint256')
  })
})
