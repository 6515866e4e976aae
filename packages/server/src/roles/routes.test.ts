import type { FastifyInstance } from 'fastify'
import { beforeAll, describe, expect, it } from 'vitest'
import { databaseKinds, signedIn, testApp } from '../../test/helpers.ts'

// `/api/roles` on both databases: roles made, read and changed under their own ACLs, their
// members reading what an ACL gives their roles (directly and through child roles) through
// `/api/classes`, and the refusals a member who tries to get into a role meets.

type Who = Awaited<ReturnType<typeof signedIn>>

describe.each(databaseKinds())('roles under /api on %s', (kind) => {
  let app: FastifyInstance
  let alice: Who
  let bob: Who
  let carol: Who
  let dave: Who
  beforeAll(async () => {
    ;({ app } = await testApp(kind))
    alice = await signedIn(app)
    bob = await signedIn(app)
    carol = await signedIn(app)
    dave = await signedIn(app)
  })
  const call = (method: string, url: string, who?: Who, payload?: unknown) =>
    app.inject({
      method: method as 'GET',
      url,
      headers: who?.headers ?? {},
      ...(payload === undefined ? {} : { payload: payload as object }),
    })
  let n = 0
  /** A name no other test uses. */
  const unique = (name: string) => `${name} ${++n}`
  const createRole = async (who: Who, body: Record<string, unknown>) => {
    const res = await call('POST', '/api/roles', who, body)
    expect(res.statusCode, res.body).toBe(201)
    return res.json() as { name: string; objectId: string; users: string[]; acl: object }
  }
  const roleUrl = (name: string) => `/api/roles/${encodeURIComponent(name)}`
  const note = async (acl: Record<string, unknown>) => {
    const res = await call('POST', '/api/classes/Note', alice, { data: { title: 'x' }, acl })
    expect(res.statusCode).toBe(201)
    return `/api/classes/Note/${res.json().objectId}`
  }

  it('creates a role with users by id or wallet address, its creator writing it and everyone reading it', async () => {
    const name = unique('Staff')
    const role = await createRole(alice, {
      name,
      users: [bob.user.address.toLowerCase(), carol.user.id],
    })
    expect(role).toMatchObject({
      name,
      owner: alice.user.id,
      acl: { '*': { read: true }, [alice.user.id]: { read: true, write: true } },
      users: [bob.user.id, carol.user.id].sort(),
      userCount: 2,
      roleCount: 0,
      roles: [],
      parentRoles: [],
    })
    // Anyone reads it, visitors included, and finds it in the list.
    expect((await call('GET', roleUrl(name))).json()).toEqual(role)
    const list = (await call('GET', '/api/roles?limit=1000', dave)).json()
    expect(list.results).toContainEqual({
      objectId: role.objectId,
      name,
      owner: alice.user.id,
      acl: role.acl,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      userCount: 2,
      roleCount: 0,
    })
    expect(list.count).toBe(list.results.length)
  })

  it('refuses a taken name (409), an unknown wallet or user (400), a bad name and a visitor', async () => {
    const name = unique('Taken')
    await createRole(alice, { name })
    const again = await call('POST', '/api/roles', bob, { name })
    expect(again.statusCode).toBe(409)
    expect(again.json().error.code).toBe('role_name_taken')
    const stranger = `0x${'7e'.repeat(20)}`
    const unknown = await call('POST', '/api/roles', alice, {
      name: unique('Nobody'),
      users: [stranger],
    })
    expect(unknown.statusCode).toBe(400)
    expect(unknown.json().error.message).toMatch(/must sign in once/)
    const noId = await call('POST', '/api/roles', alice, { name: unique('No'), users: ['nope'] })
    expect(noId.statusCode).toBe(400)
    expect(noId.json().error.message).toContain('"nope"')
    // Nothing of a refused create is left behind: the name is still free.
    expect((await call('GET', '/api/roles?limit=1000', alice)).json().results).not.toContainEqual(
      expect.objectContaining({ name: expect.stringMatching(/^(Nobody|No) /) }),
    )
    expect((await call('POST', '/api/roles', alice, { name: 'bad/name' })).statusCode).toBe(400)
    expect((await call('POST', '/api/roles', alice, { name: 'role:Admin' })).statusCode).toBe(400)
    expect((await call('POST', '/api/roles', undefined, { name: unique('Anon') })).statusCode).toBe(
      401,
    )
    const noRole = await call('POST', '/api/roles', alice, {
      name: unique('Holder'),
      roles: ['No Such Role'],
    })
    expect(noRole.statusCode).toBe(400)
    expect(noRole.json().error.message).toContain('No Such Role')
  })

  it('lets the members of a role, and of the roles it contains, read what its ACL gives it', async () => {
    const staff = await createRole(alice, { name: unique('Staff'), users: [bob.user.id] })
    const crew = await createRole(alice, {
      name: unique('Crew'),
      users: [carol.user.address],
      roles: [staff.name],
    })
    const url = await note({
      [`role:${crew.name}`]: { read: true },
      [alice.user.id]: { read: true, write: true },
    })
    // carol is in Crew, bob in Staff, which Crew contains; dave in neither.
    for (const who of [alice, bob, carol])
      expect((await call('GET', url, who)).statusCode).toBe(200)
    expect((await call('GET', url, dave)).statusCode).toBe(404)
    expect((await call('GET', url)).statusCode).toBe(404)
    const query = `/api/classes/Note?where=${encodeURIComponent(JSON.stringify({ objectId: url.split('/').pop() }))}&count=1`
    expect((await call('GET', query, bob)).json().count).toBe(1)
    expect((await call('GET', query, dave)).json().count).toBe(0)

    // The role answers name the inheritance both ways.
    const staffRead = (await call('GET', roleUrl(staff.name), bob)).json()
    expect(staffRead.parentRoles).toEqual([{ objectId: crew.objectId, name: crew.name }])
    const crewRead = (await call('GET', roleUrl(crew.name), bob)).json()
    expect(crewRead).toMatchObject({
      users: [carol.user.id],
      roles: [{ objectId: staff.objectId, name: staff.name }],
      userCount: 1,
      roleCount: 1,
    })

    // Taking Staff out of Crew counts from the next request on.
    const removed = await call('PUT', roleUrl(crew.name), alice, {
      remove: { roles: [staff.objectId] },
    })
    expect(removed.statusCode).toBe(200)
    expect(removed.json()).toMatchObject({ roles: [], roleCount: 0 })
    expect((await call('GET', url, bob)).statusCode).toBe(404)
    expect((await call('GET', url, carol)).statusCode).toBe(200)

    // Members added by their wallet address.
    const added = await call('PUT', roleUrl(staff.name), alice, {
      add: { users: [dave.user.address] },
    })
    expect(added.json().users).toEqual([bob.user.id, dave.user.id].sort())
  })

  it('keeps a cycle of roles harmless', async () => {
    const a = await createRole(alice, { name: unique('Ring A'), users: [bob.user.id] })
    const b = await createRole(alice, { name: unique('Ring B'), roles: [a.name] })
    const cycle = await call('PUT', roleUrl(a.name), alice, { add: { roles: [b.name] } })
    expect(cycle.statusCode).toBe(200)
    expect(cycle.json().parentRoles.map((r: { name: string }) => r.name)).toEqual([b.name])
    const url = await note({ [`role:${b.name}`]: { read: true } })
    expect((await call('GET', url, bob)).statusCode).toBe(200)
    const self = await call('PUT', roleUrl(a.name), alice, { add: { roles: [a.name] } })
    expect(self.statusCode).toBe(400)
    expect(self.json().error.message).toMatch(/cannot contain itself/)
  })

  it('refuses a user who adds themselves to a role they may not write (404 unread, 403 read), and changes nothing', async () => {
    const open = await createRole(alice, { name: unique('Readable') })
    const hidden = await createRole(alice, {
      name: unique('Hidden'),
      acl: { [alice.user.id]: { read: true, write: true } },
    })
    const url = await note({
      [`role:${open.name}`]: { read: true },
      [`role:${hidden.name}`]: { read: true },
    })
    const join = (name: string) =>
      call('PUT', roleUrl(name), bob, { add: { users: [bob.user.id] } })
    const readable = await join(open.name)
    expect(readable.statusCode).toBe(403)
    expect(readable.json().error.code).toBe('forbidden')
    expect((await join(hidden.name)).statusCode).toBe(404)
    // Nor through a role of their own: adding the role they hold into one they may not write.
    const mine = await createRole(bob, { name: unique('Mine'), users: [bob.user.id] })
    expect(
      (await call('PUT', roleUrl(open.name), bob, { add: { roles: [mine.name] } })).statusCode,
    ).toBe(403)
    // Nor by taking its ACL, nor by deleting it.
    expect(
      (
        await call('PUT', roleUrl(open.name), bob, {
          acl: { [bob.user.id]: { read: true, write: true } },
        })
      ).statusCode,
    ).toBe(403)
    expect((await call('DELETE', roleUrl(open.name), bob)).statusCode).toBe(403)
    expect((await call('DELETE', roleUrl(hidden.name), bob)).statusCode).toBe(404)
    // The hidden role is not listed for bob, nor can he name it as a member.
    const bobs = (await call('GET', '/api/roles?limit=1000', bob)).json().results
    expect(bobs.map((r: { name: string }) => r.name)).not.toContain(hidden.name)
    expect(
      (await call('PUT', roleUrl(mine.name), bob, { add: { roles: [hidden.name] } })).statusCode,
    ).toBe(400)
    expect((await call('GET', url, bob)).statusCode).toBe(404)
    expect((await call('GET', roleUrl(open.name), alice)).json()).toMatchObject({ users: [] })
    expect((await call('GET', roleUrl(hidden.name), alice)).json()).toMatchObject({ users: [] })
  })

  it("lets a role's ACL give another role the right to change its members", async () => {
    const admins = await createRole(alice, { name: unique('Admins'), users: [bob.user.id] })
    const editors = await createRole(alice, {
      name: unique('Editors'),
      acl: {
        '*': { read: true },
        [alice.user.id]: { read: true, write: true },
        [`role:${admins.name}`]: { write: true },
      },
    })
    const added = await call('PUT', roleUrl(editors.name), bob, { add: { users: [carol.user.id] } })
    expect(added.statusCode).toBe(200)
    expect(added.json().users).toEqual([carol.user.id])
    expect(
      (await call('PUT', roleUrl(editors.name), carol, { add: { users: [dave.user.id] } }))
        .statusCode,
    ).toBe(403)
  })

  it('refuses changes that say nothing or contradict themselves', async () => {
    const role = await createRole(alice, { name: unique('Plain') })
    const empty = await call('PUT', roleUrl(role.name), alice, {})
    expect(empty.statusCode).toBe(400)
    const both = await call('PUT', roleUrl(role.name), alice, {
      add: { users: [bob.user.id] },
      remove: { users: [bob.user.address] },
    })
    expect(both.statusCode).toBe(400)
    expect(both.json().error.message).toMatch(/both added and removed/)
    const badAcl = await call('PUT', roleUrl(role.name), alice, {
      acl: { 'role:x/y': { read: true } },
    })
    expect(badAcl.statusCode).toBe(400)
    expect((await call('GET', roleUrl('No Such Role'), alice)).statusCode).toBe(404)
  })

  it('deletes a role: its members lose what it gave them, the roles that held it forget it', async () => {
    const inner = await createRole(alice, { name: unique('Inner'), users: [bob.user.id] })
    const outer = await createRole(alice, { name: unique('Outer'), roles: [inner.name] })
    const url = await note({ [`role:${inner.name}`]: { read: true } })
    expect((await call('GET', url, bob)).statusCode).toBe(200)
    expect((await call('DELETE', roleUrl(inner.name), alice)).statusCode).toBe(204)
    expect((await call('GET', roleUrl(inner.name), alice)).statusCode).toBe(404)
    expect((await call('GET', url, bob)).statusCode).toBe(404)
    expect((await call('GET', roleUrl(outer.name), alice)).json()).toMatchObject({
      roles: [],
      roleCount: 0,
    })
    // The name is free again.
    await createRole(alice, { name: inner.name })
  })
})
