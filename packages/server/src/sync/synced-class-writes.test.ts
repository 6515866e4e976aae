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
import fs from 'node:fs'
import os from 'node:os'
import { eq } from 'drizzle-orm'
import { importClass } from '../import/parse-import.ts'
import { importCommand } from '../commands/import.ts'
import { openConfiguredDatabase } from '../commands/database.ts'
import { objects } from '../db/schema.ts'

// A synced row's existence and its event fields are the chain's: no one but the sync creates,
// deletes or changes them (a stranger, the master key, the console, an import from the console
// or the command line) on any surface. Fields an app adds to a row are the app's, written by
// those the row's ACL lets write it.

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
  let anvilUrl: string
  let databaseUrl: string | undefined
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
    anvilUrl = anvil.url
    let database
    ;({ app, database } = await testApp(kind, {
      rpc: rpcTestConfig({ 31337: [anvil.url] }),
      functionsModule: fixture,
      app: { ...base.app, adminAddresses: [ADMIN], viewerAddresses: [VIEWER] },
      compat: { ...base.compat, masterKey: MASTER_KEY, masterKeyIps: ['127.0.0.1/8'] },
    }))
    databaseUrl = (database as { url?: string }).url
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

  it('lets the console’s admins edit its fields of their own, not its event fields, and refuses imports', async () => {
    const admin = (await signedIn(app, ADMIN)).headers
    const viewer = (await signedIn(app, VIEWER)).headers
    const edit = (headers: Record<string, string>, data: Record<string, unknown>) =>
      app.inject({
        method: 'PUT',
        url: `/api/admin/classes/Activity/${rowId}`,
        headers,
        payload: { data },
      })
    expect((await edit(stranger, { note: 'x' })).json().error.code).toBe('admin_only')
    expect((await edit(viewer, { note: 'x' })).json().error.code).toBe('read_only')
    const forgedEdit = await edit(admin, { ...forged, value: '8' })
    expect(forgedEdit.statusCode).toBe(403)
    expect(forgedEdit.json().error).toMatchObject({
      code: 'synced_class',
      message: expect.stringContaining('is an event field of Activity'),
    })
    expect(await values()).toEqual(['7'])
    // The console sends the whole document: the event fields as they are, and a note.
    const current = (await app.inject(`/api/classes/Activity/${rowId}`)).json().data
    const noted = await edit(admin, { ...current, note: 'checked' })
    expect(noted.statusCode).toBe(200)
    expect(await values()).toEqual(['7'])
    const deleted = await app.inject({
      method: 'DELETE',
      url: `/api/admin/classes/Activity/${rowId}`,
      headers: admin,
    })
    expect(deleted.json().error.code).toBe('synced_class')

    const row = {
      objectId: 'imported1',
      createdAt: '2024-01-01T00:00:00.000Z',
      updatedAt: '2024-01-01T00:00:00.000Z',
      ...forged,
    }
    await expect(
      importClass(app.services.database.db, app.services.objects, {
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
    expect(await values()).toEqual(['7'])
    // Other classes import as before.
    const report = await importClass(app.services.database.db, app.services.objects, {
      file: 'Imported.json',
      format: 'legacy',
      className: 'Imported',
      rows: [{ line: 1, value: row }],
    })
    expect(report.imported).toBe(1)
  })

  it('refuses the command-line import into it, with the server’s environment, as the console does', async () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'portico-synced-export-'))
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portico-synced-data-'))
    const row = {
      objectId: 'forged1',
      createdAt: '2024-01-01T00:00:00.000Z',
      updatedAt: '2024-01-01T00:00:00.000Z',
      ...forged,
    }
    fs.writeFileSync(path.join(folder, 'Activity.json'), JSON.stringify({ results: [row] }))
    fs.writeFileSync(path.join(folder, 'Memo.json'), JSON.stringify({ results: [row] }))
    // The server's own environment: its database, its site module and its node.
    const env = {
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : { DATA_DIR: dataDir }),
      FUNCTIONS_MODULE: fixture,
      RPC_URL_31337: anvilUrl,
    }
    const lines: string[] = []
    const outcomes = await importCommand(['parse', folder], { env, print: (l) => lines.push(l) })
    const activity = outcomes.find((o) => o.file === 'Activity.json')!
    expect(activity.error?.message).toContain('filled by the contract sync "emitter" alone')
    expect(outcomes.find((o) => o.file === 'Memo.json')!.report?.imported).toBe(1)
    expect(lines.some((l) => l.startsWith('Activity.json: not imported.'))).toBe(true)
    if (databaseUrl) expect(await values()).toEqual(['7'])
    else {
      const database = await openConfiguredDatabase(env)
      const rows = await database.db
        .select({ id: objects.id })
        .from(objects)
        .where(eq(objects.className, 'Activity'))
      await database.close()
      expect(rows).toEqual([])
    }
    fs.rmSync(folder, { recursive: true, force: true })
    fs.rmSync(dataDir, { recursive: true, force: true })
  })

  it('refuses the master key’s create, delete, purge and event-field change; fields of the app’s own are written by whom the ACL lets', async () => {
    const master = (body: Record<string, unknown>, route: string, token?: string) =>
      app.inject({
        method: 'POST',
        url: `/server/${route}`,
        headers: { 'content-type': 'text/plain' },
        payload: JSON.stringify({
          _ApplicationId: 'portico',
          ...(token ? { _SessionToken: token } : { _MasterKey: MASTER_KEY }),
          ...body,
        }),
      })
    const refused = { code: 119, error: expect.stringContaining('contract sync "emitter"') }
    const made = await master({ ...forged, value: '9' }, 'classes/Activity')
    expect({ status: made.statusCode, body: made.json() }).toEqual({ status: 400, body: refused })
    for (const change of [{ value: '10' }, { transaction_hash: '0x00' }, { confirmed: false }]) {
      const changed = await master({ _method: 'PUT', ...change }, `classes/Activity/${rowId}`)
      expect(changed.json(), JSON.stringify(change)).toEqual(refused)
    }
    const unset = await master(
      { _method: 'PUT', blockHash: { __op: 'Delete' } },
      `classes/Activity/${rowId}`,
    )
    expect(unset.json()).toEqual(refused)
    const gone = await master({ _method: 'DELETE' }, `classes/Activity/${rowId}`)
    expect(gone.json()).toEqual(refused)
    const purged = await app.inject({
      method: 'DELETE',
      url: '/server/purge/Activity',
      headers: { 'x-parse-application-id': 'portico', 'x-parse-master-key': MASTER_KEY },
    })
    expect(purged.json()).toEqual(refused)
    expect(await values()).toEqual(['7'])

    // A marketplace: the master key lets the buyer write the row, the buyer marks it sold.
    const account = privateKeyToAccount(generatePrivateKey())
    const time = (await master({}, 'functions/getServerTime')).json().result.dateTime as string
    const data = `Welcome!\n\nId: portico:${time}`
    const login = (
      await master(
        {
          authData: {
            moralisEth: {
              id: account.address.toLowerCase(),
              signature: await account.signMessage({ message: data }),
              data,
            },
          },
        },
        'users',
      )
    ).json() as { objectId: string; sessionToken: string }
    const buyer = { __type: 'Pointer', className: '_User', objectId: login.objectId }
    const sold = await master(
      { _method: 'PUT', sold: true },
      `classes/Activity/${rowId}`,
      login.sessionToken,
    )
    expect(sold.json().code).toBe(101)
    const opened = await master(
      {
        _method: 'PUT',
        ACL: { '*': { read: true }, [login.objectId]: { read: true, write: true } },
      },
      `classes/Activity/${rowId}`,
    )
    expect(opened.statusCode).toBe(200)
    const bought = await master(
      { _method: 'PUT', sold: true, buyer },
      `classes/Activity/${rowId}`,
      login.sessionToken,
    )
    expect(bought.statusCode).toBe(200)
    const faked = await master(
      { _method: 'PUT', value: '1' },
      `classes/Activity/${rowId}`,
      login.sessionToken,
    )
    expect(faked.json()).toEqual(refused)
    const read = (await app.inject(`/api/classes/Activity/${rowId}`)).json()
    expect(read.data).toMatchObject({ value: '7', sold: true, buyer, confirmed: true })
  })
})
