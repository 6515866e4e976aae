import path from 'node:path'
import { createRequire } from 'node:module'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { getAddress, type Hex } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { startAnvil, type Anvil } from '@portico/test-kit/anvil'
import { token20Abi } from '@portico/test-kit/wallet-tokens'
import { loadConfig } from '../config/server.ts'
import { importFile } from '../import/parse-import.ts'
import { databaseKinds, signedIn } from '../../test/helpers.ts'
import { keepOnLoopback, listeningApp, type ListeningApp } from '../../test/compat.ts'
import { rpcTestConfig } from '../../test/rpc.ts'
import { deployTokens, indexConfig } from '../../test/addresses.ts'

// No client writes the address-sync classes: a signed-in user's create, change and delete are
// refused, with an error naming the address index, through the mount (the real moralis-v1
// client), `/api`, an import (the console's and the server's own) and cloud code running with the
// caller's session. The rows stay the chain's.

const require = createRequire(import.meta.url)
keepOnLoopback('moralis-v1/lib/node/RESTController.js')
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the v1 SDK ships loose types
const Moralis = require('moralis-v1/node') as any

const fixtures = path.resolve(import.meta.dirname, '../../test/fixtures')
const ADMIN = getAddress(`0x${'a1'.repeat(20)}`)
const REFUSAL = 'is filled by the address index alone'
const CLASSES = [
  'EthTransactions',
  'EthTokenTransfers',
  'EthNFTTransfers',
  'EthTokenBalance',
  'EthNFTOwners',
]

interface Row {
  id: string
  get(key: string): unknown
  set(key: string, value: unknown): void
  save(): Promise<unknown>
  destroy(): Promise<unknown>
}

describe.each(databaseKinds())('writes to the address classes on %s', (kind) => {
  let anvil: Anvil
  let server: ListeningApp
  const key = generatePrivateKey()
  const wallet = privateKeyToAccount(key).address.toLowerCase() as Hex
  let transfer: Row
  let balance: Row
  beforeAll(async () => {
    anvil = await startAnvil()
    const { first, token, send } = await deployTokens(anvil.url)
    server = await listeningApp(kind, {
      rpc: rpcTestConfig({ 31337: [anvil.url] }),
      addresses: indexConfig(),
      cloudCode: path.join(fixtures, 'cloud-addresses'),
      app: { ...loadConfig({}).app, adminAddresses: [ADMIN] },
    })
    Moralis.User.enableUnsafeCurrentUser()
    await Moralis.start({ serverUrl: server.serverUrl, appId: 'portico' })
    await Moralis.authenticate({
      provider: 'network',
      urls: { 1: 'http://127.0.0.1:9' },
      chainId: 1,
      privateKey: key,
    })
    await send(first, token, token20Abi, 'mint', [wallet, 500n])
    const find = async (className: string, field: string) =>
      (await new Moralis.Query(className).equalTo(field, wallet).first()) as Row | undefined
    // expect.poll is for tests alone: the rows are waited for here as the sync tests do.
    const deadline = Date.now() + 30_000
    while (!(await find('EthTokenBalance', 'address'))) {
      if (Date.now() > deadline) throw new Error('the index wrote no balance')
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    transfer = (await find('EthTokenTransfers', 'to_address'))!
    balance = (await find('EthTokenBalance', 'address'))!
  })
  afterAll(async () => {
    await Moralis.User.logOut().catch(() => {})
    await anvil.stop()
  })

  /** The user's rows as they are now: unchanged by every refused write. */
  const unchanged = async () => {
    const transfers = await new Moralis.Query('EthTokenTransfers').find()
    const balances = await new Moralis.Query('EthTokenBalance').find()
    expect(transfers.map((r: Row) => [r.id, r.get('value')])).toEqual([[transfer.id, '500']])
    expect(balances.map((r: Row) => [r.id, r.get('balance')])).toEqual([[balance.id, '500']])
  }

  it('refuses moralis-v1’s save and destroy through the mount with 119', async () => {
    for (const className of CLASSES) {
      const Forged = Moralis.Object.extend(className)
      await expect(new Forged({ value: '1' }).save(), className).rejects.toMatchObject({
        code: 119,
        message: expect.stringContaining(REFUSAL),
      })
    }
    for (const row of [transfer, balance]) {
      await expect(row.destroy()).rejects.toMatchObject({
        code: 119,
        message: expect.stringContaining(REFUSAL),
      })
    }
    const all = await Moralis.Object.destroyAll([transfer, balance]).catch(
      (error: unknown) => error,
    )
    expect(all).toMatchObject({ code: 600 })
    expect((all as { errors: { code: number }[] }).errors.map((e) => e.code)).toEqual([119, 119])
    await unchanged()
  })

  it('refuses /api’s create, update and delete, alone and in a batch, with 403', async () => {
    const { headers } = await signedIn(server.app)
    const api = (method: 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
      server.app.inject({ method, url, headers, ...(payload ? { payload } : {}) })
    for (const answer of [
      await api('POST', '/api/classes/EthTokenBalance', { data: { balance: '1' } }),
      await api('PUT', `/api/classes/EthTokenTransfers/${transfer.id}`, { data: { value: '1' } }),
      await api('DELETE', `/api/classes/EthTokenTransfers/${transfer.id}`),
      await api('PUT', `/api/classes/EthTokenBalance/${balance.id}`, { data: { balance: '9' } }),
      await api('DELETE', `/api/classes/EthTokenBalance/${balance.id}`),
    ]) {
      expect(answer.statusCode).toBe(403)
      expect(answer.json().error).toMatchObject({
        code: 'synced_class',
        message: expect.stringContaining(REFUSAL),
      })
    }
    const batch = await api('POST', '/api/batch', {
      requests: [
        { method: 'POST', path: '/api/classes/EthTokenTransfers', body: { data: { value: '1' } } },
        { method: 'DELETE', path: `/api/classes/EthTokenTransfers/${transfer.id}` },
      ],
    })
    expect(batch.json().results.map((r: { status: number }) => r.status)).toEqual([403, 403])
    await unchanged()
  })

  it('refuses an import into them, from the console and the server’s own', async () => {
    const row = {
      objectId: 'imported1',
      createdAt: '2024-01-01T00:00:00.000Z',
      updatedAt: '2024-01-01T00:00:00.000Z',
      to_address: wallet,
      value: '1000000',
      confirmed: true,
    }
    await expect(
      importFile(server.app.services.database.db, server.app.services.objects, {
        name: 'EthTokenTransfers.json',
        text: JSON.stringify({ results: [row] }),
      }),
    ).rejects.toMatchObject({ statusCode: 403, code: 'synced_class' })
    const admin = (await signedIn(server.app, ADMIN)).headers
    const uploaded = await server.app.inject({
      method: 'POST',
      url: '/api/admin/import/EthTokenTransfers',
      headers: { ...admin, 'content-type': 'application/json' },
      payload: JSON.stringify({ results: [row] }),
    })
    const lines = uploaded.body
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { error?: string })
    expect(lines.at(-1)!.error).toContain(REFUSAL)
    await unchanged()
  })

  it('refuses cloud code’s writes made without the master key', async () => {
    for (const params of [
      { className: 'EthTokenTransfers', op: 'create' },
      { className: 'EthTokenTransfers', op: 'update', id: transfer.id },
      { className: 'EthTokenTransfers', op: 'delete', id: transfer.id },
      { className: 'EthTokenBalance', op: 'delete', id: balance.id },
      // Neither the caller's session nor the master key.
      { className: 'EthTokenTransfers', op: 'create', anonymous: true },
      { className: 'EthTokenTransfers', op: 'delete', id: transfer.id, anonymous: true },
    ]) {
      await expect(
        Moralis.Cloud.run('writeAddressRow', params),
        JSON.stringify(params),
      ).rejects.toMatchObject({ message: expect.stringContaining(REFUSAL) })
    }
    await unchanged()
  })
})
