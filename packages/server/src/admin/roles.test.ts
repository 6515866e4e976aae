import type { FastifyInstance } from 'fastify'
import { getAddress } from 'viem'
import { beforeAll, describe, expect, it } from 'vitest'
import { databaseKinds, signedIn, testApp, testConfig } from '../../test/helpers.ts'

// The console's roles on both databases: made and changed as the console (whatever the role's
// ACL), users shown and named by wallet address, every change in the audit log; and a role
// given to an object from the console lets its members read it through the site's API.

const ADMIN = getAddress(`0x${'a1'.repeat(20)}`)
const VIEWER = getAddress(`0x${'b2'.repeat(20)}`)
type Who = Awaited<ReturnType<typeof signedIn>>

describe.each(databaseKinds())('console roles on %s', (kind) => {
  let app: FastifyInstance
  let admin: Who
  let viewer: Who
  let member: Who
  let other: Who
  beforeAll(async () => {
    const base = testConfig()
    ;({ app } = await testApp(kind, {
      app: { ...base.app, adminAddresses: [ADMIN], viewerAddresses: [VIEWER] },
    }))
    admin = await signedIn(app, ADMIN)
    viewer = await signedIn(app, VIEWER)
    member = await signedIn(app)
    other = await signedIn(app)
  })
  const call = (method: string, url: string, who?: Who, payload?: unknown) =>
    app.inject({
      method: method as 'GET',
      url,
      headers: who?.headers ?? {},
      ...(payload === undefined ? {} : { payload: payload as object }),
    })
  const audit = async () => (await call('GET', '/api/admin/audit', admin)).json().results

  it('creates a role with members by wallet address, changes and deletes it, and audits each change', async () => {
    const made = await call('POST', '/api/admin/roles', admin, {
      name: 'Moderators',
      users: [member.user.address.toLowerCase()],
    })
    expect(made.statusCode, made.body).toBe(201)
    // Made in the console: everyone reads it, only the console (and the master key) changes it.
    expect(made.json()).toMatchObject({
      name: 'Moderators',
      owner: admin.user.id,
      acl: { '*': { read: true } },
      users: [{ id: member.user.id, address: member.user.address }],
    })
    expect((await audit())[0]).toMatchObject({
      actor: ADMIN,
      action: 'role.create',
      target: 'role/Moderators',
      after: { users: [member.user.address], roles: [] },
    })
    const team = await call('POST', '/api/admin/roles', admin, {
      name: 'Team',
      roles: ['Moderators'],
    })
    expect(team.statusCode).toBe(201)

    const list = (await call('GET', '/api/admin/roles', viewer)).json()
    expect(list).toMatchObject({
      count: 2,
      results: [
        { name: 'Moderators', userCount: 1, roleCount: 0 },
        { name: 'Team', userCount: 0, roleCount: 1 },
      ],
    })
    const read = (await call('GET', '/api/admin/roles/Moderators', viewer)).json()
    expect(read.parentRoles).toMatchObject([{ name: 'Team' }])

    const changed = await call('PUT', '/api/admin/roles/Moderators', admin, {
      add: { users: [other.user.address] },
      remove: { users: [member.user.id] },
    })
    expect(changed.statusCode).toBe(200)
    expect(changed.json().users).toEqual([{ id: other.user.id, address: other.user.address }])
    expect((await audit())[0]).toMatchObject({
      action: 'role.update',
      target: 'role/Moderators',
      before: { users: [member.user.address] },
      after: { users: [other.user.address] },
    })

    const unknown = await call('PUT', '/api/admin/roles/Moderators', admin, {
      add: { users: [`0x${'99'.repeat(20)}`] },
    })
    expect(unknown.statusCode).toBe(400)
    expect(unknown.json().error.message).toMatch(/must sign in once/)
    const taken = await call('POST', '/api/admin/roles', admin, { name: 'Team' })
    expect(taken.statusCode).toBe(409)

    expect((await call('DELETE', '/api/admin/roles/Team', admin)).statusCode).toBe(204)
    expect((await audit())[0]).toMatchObject({
      action: 'role.delete',
      target: 'role/Team',
      before: { roles: ['Moderators'] },
    })
    expect((await call('GET', '/api/admin/roles/Team', admin)).statusCode).toBe(404)
  })

  it('changes a role whose ACL lets nobody else in, and keeps its name in the object editor', async () => {
    const made = await call('POST', '/api/admin/roles', admin, { name: 'Vault', acl: {} })
    expect(made.json().acl).toEqual({})
    // Nobody reads it through the API, the console still manages it.
    expect((await call('GET', '/api/roles/Vault', member)).statusCode).toBe(404)
    const added = await call('PUT', '/api/admin/roles/Vault', admin, {
      add: { users: [member.user.id] },
    })
    expect(added.json().users).toEqual([{ id: member.user.id, address: member.user.address }])
    const renamed = await call('PUT', `/api/admin/classes/_Role/${made.json().objectId}`, admin, {
      data: { name: 'Renamed' },
    })
    expect(renamed.statusCode).toBe(400)
    expect(renamed.json().error.message).toMatch(/name can only be set/)
  })

  it('lets only admins change roles: viewers read, members are refused', async () => {
    for (const [method, url, body] of [
      ['POST', '/api/admin/roles', { name: 'Mine' }],
      ['PUT', '/api/admin/roles/Vault', { add: { users: [viewer.user.id] } }],
      ['DELETE', '/api/admin/roles/Vault', undefined],
    ] as const) {
      const refused = await call(method, url, viewer, body)
      expect(refused.statusCode, `${method} ${url}`).toBe(403)
      expect(refused.json().error.code).toBe('read_only')
    }
    expect((await call('GET', '/api/admin/roles', member)).statusCode).toBe(403)
    expect((await call('GET', '/api/admin/roles')).statusCode).toBe(401)
  })

  it("gives an object to a role from the console: the role's members read it through the API", async () => {
    await call('POST', '/api/admin/roles', admin, { name: 'Readers', users: [member.user.address] })
    const note = await call('POST', '/api/classes/Secret', other, { data: { text: 'hush' } })
    const id = note.json().objectId
    const url = `/api/classes/Secret/${id}`
    expect((await call('GET', url, member)).statusCode).toBe(404)
    // Users may be named by wallet address: the console stores their ids.
    const stranger = await call('PUT', `/api/admin/classes/Secret/${id}`, admin, {
      data: { text: 'hush' },
      acl: { [`0x${'98'.repeat(20)}`]: { read: true } },
    })
    expect(stranger.statusCode).toBe(400)
    expect(stranger.json().error.message).toMatch(/must sign in once/)
    const edited = await call('PUT', `/api/admin/classes/Secret/${id}`, admin, {
      data: { text: 'hush' },
      acl: {
        'role:Readers': { read: true },
        [other.user.address.toLowerCase()]: { read: true },
        [other.user.id]: { write: true },
        [viewer.user.address]: { write: true },
      },
    })
    expect(edited.statusCode).toBe(200)
    expect(edited.json().acl).toEqual({
      'role:Readers': { read: true },
      [other.user.id]: { read: true, write: true },
      [viewer.user.id]: { write: true },
    })
    expect((await call('GET', url, member)).json().data).toEqual({ text: 'hush' })
    expect((await call('GET', url, viewer)).statusCode).toBe(404)
    // The console's page names every user its ACLs name by address.
    const page = (await call('GET', '/api/admin/classes/Secret', admin)).json()
    expect(page.owners).toEqual({
      [other.user.id]: other.user.address,
      [viewer.user.id]: viewer.user.address,
    })
  })
})
