import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FastifyInstance } from 'fastify'
import { getAddress } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { startAnvil, type Anvil } from '@portico/test-kit/anvil'
import { databaseKinds, signedIn, testApp, testConfig } from '../../test/helpers.ts'
import { rpcTestConfig } from '../../test/rpc.ts'
import { deployEmitter } from '../../test/sync.ts'
import { importClass } from '../import/parse-import.ts'

// A synced class is written by its sync alone (and the console and the master key): a signed-in
// stranger cannot make up, change or delete an "event" on any surface.

const MASTER_KEY = 'master-key-of-the-synced-class-tests'

const fixture = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../test/fixtures/sync-module.mjs',
)
const ADMIN = getAddress(`0x${'a1'.repeat(20)}`)
const VIEWER = getAddress(`0x${'b2'.repeat(20)}`)
const recipient = getAddress('0x00000000000000000000000000000000000000cc')
const forged = {
  from: recipient,
  to: recipient,
  value: '1000000000000000000000',
  transactionHash: `0x${'ab'.repeat(32)}`,
  logIndex: 0,
  confirmed: true,
}

describe.each(databaseKinds())('writes to a synced class on %s', (kind) => {
  let anvil: Anvil
  let app: FastifyInstance
  let stranger: Record<string, string>
  let rowId: string
  beforeAll(async () => {
    anvil = await startAnvil()
    const emitter = await deployEmitter(anvil.url)
    await emitter.send('mint', [recipient, 7n])
    process.env.SYNC_ADDRESS = emitter.address
    process.env.SYNC_CONFIRMATIONS = '1'
    process.env.SYNC_START_BLOCK = '0'
    const base = testConfig()
    ;({ app } = await testApp(kind, {
      rpc: rpcTestConfig({ 31337: [anvil.url] }),
      functionsModule: fixture,
      app: { ...base.app, adminAddresses: [ADMIN], viewerAddresses: [VIEWER] },
      compat: { ...base.compat, masterKey: MASTER_KEY, masterKeyIps: ['127.0.0.1/8'] },
    }))
    stranger = (await signedIn(app)).headers
    const deadline = Date.now() + 20_000
    while ((await app.inject('/api/classes/Activity')).json().results.length === 0) {
      if (Date.now() > deadline) throw new Error('the sync wrote no row')
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    rowId = (await app.inject('/api/classes/Activity')).json().results[0].objectId
  })
  afterAll(async () => {
    await anvil.stop()
  })

  /** The synced rows, as anyone reads them. */
  const values = async () =>
    (await app.inject('/api/classes/Activity'))
      .json()
      .results.map((r: { data: { value: string } }) => r.data.value)

  it('refuses a stranger’s create, update and delete on /api with 403', async () => {
    const created = await app.inject({
      method: 'POST',
      url: '/api/classes/Activity',
      headers: stranger,
      payload: { data: forged, publicRead: true },
    })
    expect(created.statusCode).toBe(403)
    expect(created.json().error).toMatchObject({
      code: 'synced_class',
      message: expect.stringContaining('contract sync "emitter"'),
    })
    const updated = await app.inject({
      method: 'PUT',
      url: `/api/classes/Activity/${rowId}`,
      headers: stranger,
      payload: { data: { value: '1' } },
    })
    expect(updated.statusCode).toBe(403)
    expect(updated.json().error.code).toBe('synced_class')
    const deleted = await app.inject({
      method: 'DELETE',
      url: `/api/classes/Activity/${rowId}`,
      headers: stranger,
    })
    expect(deleted.statusCode).toBe(403)
    expect(await values()).toEqual(['7'])
  })

  it('refuses each write of a batch with 403, and still answers its reads', async () => {
    const answer = await app.inject({
      method: 'POST',
      url: '/api/batch',
      headers: stranger,
      payload: {
        requests: [
          { method: 'POST', path: '/api/classes/Activity', body: { data: forged } },
          { method: 'PUT', path: `/api/classes/Activity/${rowId}`, body: { data: { to: 'x' } } },
          { method: 'DELETE', path: `/api/classes/Activity/${rowId}` },
          { method: 'GET', path: '/api/classes/Activity' },
          { method: 'POST', path: '/api/classes/Other', body: { data: { n: 1 } } },
        ],
      },
    })
    const { results } = answer.json()
    expect(results.map((r: { status: number }) => r.status)).toEqual([403, 403, 403, 200, 201])
    expect(results[0].body.error.code).toBe('synced_class')
    expect(await values()).toEqual(['7'])
  })

  it('refuses the mount’s create, update, delete and batch with Parse error 119', async () => {
    const call = async (route: string, body: Record<string, unknown>, token?: string) => {
      const answer = await app.inject({
        method: 'POST',
        url: `/server/${route}`,
        headers: { 'content-type': 'text/plain' },
        payload: JSON.stringify({
          _ApplicationId: 'portico',
          ...body,
          ...(token ? { _SessionToken: token } : {}),
        }),
      })
      return { status: answer.statusCode, body: answer.json() }
    }
    const account = privateKeyToAccount(generatePrivateKey())
    const time = (await call('functions/getServerTime', {})).body.result.dateTime as string
    const data = `Welcome!\n\nId: portico:${time}`
    const login = await call('users', {
      authData: {
        moralisEth: {
          id: account.address.toLowerCase(),
          signature: await account.signMessage({ message: data }),
          data,
        },
      },
    })
    const token = login.body.sessionToken as string
    expect(token).toBeTruthy()

    const v1Row = { ...forged, transaction_hash: forged.transactionHash }
    for (const [route, body] of [
      ['classes/Activity', v1Row],
      [`classes/Activity/${rowId}`, { _method: 'PUT', value: '1' }],
      [`classes/Activity/${rowId}`, { _method: 'DELETE' }],
    ] as const) {
      const refused = await call(route, body, token)
      expect(refused, route).toMatchObject({ status: 400, body: { code: 119 } })
      expect(refused.body.error).toContain('contract sync')
    }
    const batch = await call(
      'batch',
      {
        requests: [
          { method: 'POST', path: '/server/classes/Activity', body: v1Row },
          { method: 'PUT', path: `/server/classes/Activity/${rowId}`, body: { value: '2' } },
          { method: 'DELETE', path: `/server/classes/Activity/${rowId}` },
        ],
      },
      token,
    )
    expect(batch.body).toEqual([
      { error: { code: 119, error: expect.any(String) } },
      { error: { code: 119, error: expect.any(String) } },
      { error: { code: 119, error: expect.any(String) } },
    ])
    expect(await values()).toEqual(['7'])
  })

  it('lets the console’s admins edit it, not its viewers nor strangers, and refuses imports', async () => {
    const admin = (await signedIn(app, ADMIN)).headers
    const viewer = (await signedIn(app, VIEWER)).headers
    const edit = (headers: Record<string, string>) =>
      app.inject({
        method: 'PUT',
        url: `/api/admin/classes/Activity/${rowId}`,
        headers,
        payload: { data: { ...forged, value: '8' } },
      })
    expect((await edit(stranger)).json().error.code).toBe('admin_only')
    expect((await edit(viewer)).json().error.code).toBe('read_only')
    expect(await values()).toEqual(['7'])
    const byAdmin = await edit(admin)
    expect(byAdmin.statusCode).toBe(200)
    expect(await values()).toEqual(['8'])

    const row = {
      objectId: 'imported1',
      createdAt: '2024-01-01T00:00:00.000Z',
      updatedAt: '2024-01-01T00:00:00.000Z',
      ...forged,
    }
    await expect(
      importClass(app.services.db, app.services.objects, {
        file: 'Activity.json',
        format: 'legacy',
        className: 'Activity',
        rows: [{ line: 1, value: row }],
      }),
    ).rejects.toMatchObject({ statusCode: 403, code: 'synced_class' })
    const uploaded = await app.inject({
      method: 'POST',
      url: '/api/admin/import/Activity',
      headers: { ...admin, 'content-type': 'application/json' },
      payload: JSON.stringify({ results: [row] }),
    })
    const lines = uploaded.body
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { error?: string })
    expect(lines.at(-1)!.error).toContain('contract sync "emitter"')
    expect(await values()).toEqual(['8'])
    // Other classes import as before.
    const report = await importClass(app.services.db, app.services.objects, {
      file: 'Imported.json',
      format: 'legacy',
      className: 'Imported',
      rows: [{ line: 1, value: row }],
    })
    expect(report.imported).toBe(1)
  })

  it('lets the master key write it on the mount, as the console does', async () => {
    const master = (body: Record<string, unknown>, route: string) =>
      app.inject({
        method: 'POST',
        url: `/server/${route}`,
        headers: { 'content-type': 'text/plain' },
        payload: JSON.stringify({ _ApplicationId: 'portico', _MasterKey: MASTER_KEY, ...body }),
      })
    const made = await master({ ...forged, value: '9' }, 'classes/Activity')
    expect(made.statusCode).toBe(201)
    const changed = await master({ _method: 'PUT', value: '10' }, `classes/Activity/${rowId}`)
    expect(changed.statusCode).toBe(200)
    expect((await values()).sort()).toEqual(['10', '9'])
    const gone = await master({ _method: 'DELETE' }, `classes/Activity/${made.json().objectId}`)
    expect(gone.statusCode).toBe(200)
    expect(await values()).toEqual(['10'])
  })
})
