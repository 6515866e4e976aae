import { eq } from 'drizzle-orm'
import type { FastifyInstance } from 'fastify'
import { getAddress } from 'viem'
import { beforeAll, describe, expect, it } from 'vitest'
import { databaseKinds, signedIn, testApp, testConfig } from '../../test/helpers.ts'
import { loadConfig } from '../config/server.ts'
import { sessions } from '../db/schema.ts'
import { effectiveSettings } from './settings.ts'
import { importFile } from '../import/parse-import.ts'

const ADMIN = getAddress(`0x${'a1'.repeat(20)}`)
const VIEWER = getAddress(`0x${'b2'.repeat(20)}`)

describe.each(databaseKinds())('the admin console API on %s', (kind) => {
  let app: FastifyInstance
  let admin: Record<string, string>
  let viewer: Record<string, string>
  let member: Awaited<ReturnType<typeof signedIn>>
  beforeAll(async () => {
    const base = testConfig()
    ;({ app } = await testApp(kind, {
      app: { ...base.app, adminAddresses: [ADMIN], viewerAddresses: [VIEWER] },
    }))
    admin = (await signedIn(app, ADMIN)).headers
    viewer = (await signedIn(app, VIEWER)).headers
    member = await signedIn(app)
    for (const [title, score] of [
      ['alpha', 3],
      ['beta', 9],
      ['gamma', 5],
    ] as const)
      await app.inject({
        method: 'POST',
        url: '/api/classes/Note',
        headers: member.headers,
        payload: { data: { title, score, formula: '=1+1' } },
      })
  })
  const call = (method: string, url: string, headers: Record<string, string>, payload?: unknown) =>
    app.inject({
      method: method as 'GET',
      url,
      headers,
      ...(payload === undefined ? {} : { payload: payload as object }),
    })

  it('answers visitors 401 and signed-in members 403, on every console route', async () => {
    for (const url of [
      '/api/admin/me',
      '/api/admin/overview',
      '/api/admin/users',
      '/api/admin/classes/Note',
    ]) {
      expect((await call('GET', url, {})).statusCode, url).toBe(401)
      const refused = await call('GET', url, member.headers)
      expect(refused.statusCode, url).toBe(403)
      expect(refused.json().error.code).toBe('admin_only')
    }
  })

  it('shows a viewer everything and lets them change nothing', async () => {
    expect((await call('GET', '/api/admin/me', viewer)).json()).toMatchObject({ role: 'viewer' })
    const overview = (await call('GET', '/api/admin/overview', viewer)).json()
    expect(overview.classes).toContainEqual({ className: 'Note', count: 3 })
    expect(overview.users).toBeGreaterThanOrEqual(3)
    const notes = (await call('GET', '/api/admin/classes/Note', viewer)).json()
    const id = notes.results[0].objectId
    for (const [method, url, payload] of [
      ['PUT', `/api/admin/classes/Note/${id}`, { data: { title: 'hacked' } }],
      ['DELETE', `/api/admin/classes/Note/${id}`],
      ['POST', '/api/admin/api-keys', { label: 'mine' }],
      ['POST', `/api/admin/users/${member.user.id}/revoke-sessions`],
    ] as const) {
      const refused = await call(method, url, viewer, payload)
      expect(refused.statusCode, `${method} ${url}`).toBe(403)
      expect(refused.json().error.code).toBe('read_only')
    }
    expect((await call('GET', '/api/admin/audit', viewer)).json().results).toEqual([])
  })

  it('browses objects with the SDK query language, edits one with validation, and audits it', async () => {
    const page = await call(
      'GET',
      `/api/admin/classes/Note?where=${encodeURIComponent(JSON.stringify({ score: { $gte: 5 } }))}&order=-score&count=1`,
      admin,
    )
    expect(page.json().count).toBe(2)
    expect(page.json().results.map((o: { data: { title: string } }) => o.data.title)).toEqual([
      'beta',
      'gamma',
    ])
    const beta = page.json().results[0]
    expect(beta.owner).toBe(member.user.id)
    // Owners by their wallet address, as the console shows them.
    expect(page.json().owners[member.user.id]).toBe(member.user.address)
    const bad = await call('PUT', `/api/admin/classes/Note/${beta.objectId}`, admin, {
      data: { 'bad field!': 1 },
    })
    expect(bad.statusCode).toBe(400)
    const edited = await call('PUT', `/api/admin/classes/Note/${beta.objectId}`, admin, {
      data: { title: 'beta, edited', score: 10 },
      publicRead: true,
    })
    expect(edited.statusCode).toBe(200)
    expect(edited.json()).toMatchObject({
      publicRead: true,
      data: { title: 'beta, edited', score: 10 },
    })
    expect(edited.json().data).not.toHaveProperty('formula')
    // The owner sees the change through the ordinary API.
    const seen = await call('GET', `/api/classes/Note/${beta.objectId}`, member.headers)
    expect(seen.json().data.title).toBe('beta, edited')
    const [entry] = (await call('GET', '/api/admin/audit', admin)).json().results
    expect(entry).toMatchObject({
      actor: ADMIN,
      action: 'object.update',
      target: `Note/${beta.objectId}`,
      before: { data: { title: 'beta', score: 9 }, publicRead: false },
      after: { data: { title: 'beta, edited', score: 10 }, publicRead: true },
    })
    // An owner is named by wallet address (any case) or user id; an address that never signed in
    // is refused with what to do.
    const toAdmin = await call('PUT', `/api/admin/classes/Note/${beta.objectId}`, admin, {
      data: edited.json().data,
      publicRead: true,
      owner: ADMIN.toLowerCase(),
    })
    expect(toAdmin.statusCode).toBe(200)
    expect(toAdmin.json().owner).not.toBe(member.user.id)
    const stranger = await call('PUT', `/api/admin/classes/Note/${beta.objectId}`, admin, {
      data: edited.json().data,
      owner: `0x${'12'.repeat(20)}`,
    })
    expect(stranger.statusCode).toBe(400)
    expect(stranger.json().error.message).toMatch(/must sign in once/)
    const back = await call('PUT', `/api/admin/classes/Note/${beta.objectId}`, admin, {
      data: edited.json().data,
      publicRead: true,
      owner: member.user.id,
    })
    expect(back.json().owner).toBe(member.user.id)
  })

  it('exports a class as JSON the import reads and as CSV with formulas defused', async () => {
    const json = await call('GET', '/api/admin/classes/Note/export?format=json', admin)
    expect(json.headers['content-disposition']).toBe('attachment; filename="Note.json"')
    const rows = json.json().results
    expect(rows).toHaveLength(3)
    expect(rows[0]).toHaveProperty('ACL')
    // The import reads an export back: same objects, same owners, in another class.
    const copy = await importFile(app.services.database.db, app.services.objects, {
      name: 'NoteCopy.json',
      text: json.body,
    })
    expect(copy).toMatchObject({ imported: 3, refused: [] })
    const copied = (await call('GET', '/api/admin/classes/NoteCopy?order=title', admin)).json()
    expect(copied.results.map((o: { owner: string }) => o.owner)).toEqual([
      member.user.id,
      member.user.id,
      member.user.id,
    ])
    const filtered = await call(
      'GET',
      `/api/admin/classes/Note/export?format=csv&where=${encodeURIComponent(JSON.stringify({ title: 'alpha' }))}`,
      admin,
    )
    const lines = filtered.body.trim().split('\r\n')
    expect(lines[0]).toBe('objectId,owner,publicRead,createdAt,updatedAt,formula,score,title')
    expect(lines).toHaveLength(2)
    expect(lines[1]).toMatch(/,'=1\+1,3,alpha$/)
  })

  it('deletes only with a recent sign-in, and revokes sessions so their next request is 401', async () => {
    const notes = (await call('GET', '/api/admin/classes/Note?order=score', admin)).json().results
    const alpha = notes[0]
    // An admin whose sign-in is older than 15 minutes must sign in again first.
    const stale = await signedIn(app, ADMIN)
    await app.services.database.db
      .update(sessions)
      .set({ createdAt: new Date(Date.now() - 16 * 60_000) })
      .where(eq(sessions.tokenHash, (await import('../auth/sessions.ts')).hashToken(stale.token)))
    const refused = await call('DELETE', `/api/admin/classes/Note/${alpha.objectId}`, stale.headers)
    expect(refused.statusCode).toBe(403)
    expect(refused.json().error.code).toBe('fresh_sign_in_required')
    expect(
      (await call('DELETE', `/api/admin/classes/Note/${alpha.objectId}`, admin)).statusCode,
    ).toBe(204)
    expect(
      (await call('GET', `/api/classes/Note/${alpha.objectId}`, member.headers)).statusCode,
    ).toBe(404)

    const listed = (await call('GET', `/api/admin/users/${member.user.id}/sessions`, admin)).json()
    expect(listed.results).toHaveLength(1)
    expect((await call('GET', '/api/classes/Note', member.headers)).statusCode).toBe(200)
    const revoked = await call('POST', `/api/admin/sessions/${listed.results[0].id}/revoke`, admin)
    expect(revoked.statusCode).toBe(200)
    expect((await call('GET', '/api/auth/session', member.headers)).statusCode).toBe(401)
    const actions = (await call('GET', '/api/admin/audit', admin))
      .json()
      .results.map((e: { action: string }) => e.action)
    expect(actions.slice(0, 2)).toEqual(['session.revoke', 'object.delete'])
  })

  it('creates an API key shown once, lists it with its last use, and revokes it for the gateway', async () => {
    const created = await call('POST', '/api/admin/api-keys', admin, { label: 'indexer' })
    expect(created.statusCode).toBe(201)
    const { id, key } = created.json()
    expect(key).toMatch(/^pk_/)
    const gateway = () =>
      call(
        'POST',
        '/api/rpc/31337',
        { 'x-api-key': key, 'content-type': 'application/json' },
        {
          jsonrpc: '2.0',
          id: 1,
          method: 'eth_chainId',
        },
      )
    // Accepted (no node is configured for the chain here, so it answers past the key check).
    expect((await gateway()).statusCode).not.toBe(401)
    await expect
      .poll(
        async () =>
          (await call('GET', '/api/admin/api-keys', admin))
            .json()
            .results.find((k: { id: string }) => k.id === id).lastUsedAt,
      )
      .toBeTruthy()
    const listed = (await call('GET', '/api/admin/api-keys', admin)).body
    expect(listed).not.toContain(key)
    expect((await call('POST', `/api/admin/api-keys/${id}/revoke`, admin)).statusCode).toBe(200)
    const refused = await gateway()
    expect(refused.statusCode).toBe(401)
  })

  it('shows the effective settings with their source, secrets masked', async () => {
    const { results } = (await call('GET', '/api/admin/settings', admin)).json()
    const setting = (name: string) => results.find((s: { name: string }) => s.name === name)
    expect(setting('ADMIN_ADDRESSES')).toMatchObject({ value: ADMIN, source: 'default' })
    expect(setting('FILES_STORAGE')).toMatchObject({ value: 'database' })
  })

  it('imports an export uploaded from the console, with progress lines and a report', async () => {
    const body = JSON.stringify({
      results: [
        {
          objectId: 'imp1',
          createdAt: '2024-01-01T00:00:00.000Z',
          updatedAt: '2024-01-02T00:00:00.000Z',
          n: 1,
        },
        {
          objectId: 'imp2',
          createdAt: '2024-01-01T00:00:00.000Z',
          updatedAt: '2024-01-02T00:00:00.000Z',
          ACL: { 'role:X': { read: true } },
        },
        {
          objectId: 'imp3',
          createdAt: 'not a date',
          updatedAt: '2024-01-02T00:00:00.000Z',
        },
      ],
    })
    const answer = await call(
      'POST',
      '/api/admin/import/Imported',
      { ...admin, 'content-type': 'application/json' },
      body,
    )
    expect(answer.statusCode).toBe(200)
    const lines = answer.body
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l))
    expect(lines[0]).toEqual({ progress: { className: 'Imported', done: 3, total: 3 } })
    // A role's ACL is imported as it is; a row without a valid date is refused, by field.
    expect(lines.at(-1).report).toMatchObject({
      imported: 2,
      refused: [{ objectId: 'imp3', field: 'createdAt' }],
    })
    const viewerTry = await call(
      'POST',
      '/api/admin/import/Imported',
      { ...viewer, 'content-type': 'application/json' },
      body,
    )
    expect(viewerTry.statusCode).toBe(403)
    // A relation file of the legacy export, named as the file is.
    const join = await call(
      'POST',
      `/api/admin/import/${encodeURIComponent('_Join:users:_Role')}`,
      { ...admin, 'content-type': 'application/json' },
      JSON.stringify({ results: [{ owningId: 'role1', relatedId: 'user1' }] }),
    )
    expect(join.statusCode).toBe(200)
    expect(JSON.parse(join.body.trim().split('\n').at(-1)!).report).toMatchObject({
      file: '_Join:users:_Role.json',
      className: '_Role',
      imported: 1,
    })
    const notExport = await call(
      'POST',
      '/api/admin/import/Imported',
      { ...admin, 'content-type': 'application/json' },
      '{"a":1}',
    )
    expect(notExport.statusCode).toBe(400)
    expect(notExport.json().error.code).toBe('invalid_import')
  })
})

describe('effective settings', () => {
  it('mask secrets and say which values came from the environment', () => {
    const config = loadConfig({
      DATABASE_URL: 'postgres://portico:hunter2@db.internal:5432/portico',
      RPC_URL_1: 'https://mainnet.example/v3/PROVIDERKEY123',
      METRICS_TOKEN: 'metrics-secret',
      EVENTS_VISITOR_SECRET: 'visitor-secret-value',
      APP_ID: 'shop',
    })
    const settings = effectiveSettings(config)
    const text = JSON.stringify(settings)
    for (const secret of ['hunter2', 'PROVIDERKEY123', 'metrics-secret', 'visitor-secret-value'])
      expect(text).not.toContain(secret)
    const byName = Object.fromEntries(settings.map((s) => [s.name, s]))
    expect(byName.DATABASE_URL).toMatchObject({ source: 'environment', secret: true })
    expect(byName.DATABASE_URL!.value).toMatch(/^postgres:\/\/•+@db\.internal:5432\/•+$/)
    expect(byName.RPC_URL_1!.value).toBe('https://mainnet.example/••••••••')
    expect(byName.APP_ID).toMatchObject({ value: 'shop', source: 'environment' })
    expect(byName.SESSION_TTL).toMatchObject({ source: 'default' })
  })
})
