import type { FastifyInstance } from 'fastify'
import { beforeAll, describe, expect, it } from 'vitest'
import { consoleTestApp, databaseKinds, signedIn } from '../../test/helpers.ts'

// The data browser's creates on both databases: a class with its first columns and an object
// with typed values, each in the audit log, refused with what to do for a taken or bad name, a
// bad value or a viewer, and applied once however often the console retries with its key.

type Who = Awaited<ReturnType<typeof signedIn>>

describe.each(databaseKinds())("the console's class and object creates on %s", (kind) => {
  let app: FastifyInstance
  let admin: Who
  let viewer: Who
  beforeAll(async () => {
    ;({ app, admin, viewer } = await consoleTestApp(kind))
  })
  const call = (
    method: string,
    url: string,
    who: Who,
    payload?: object,
    headers: Record<string, string> = {},
  ) =>
    app.inject({
      method: method as 'GET',
      url,
      headers: { ...who.headers, ...headers },
      ...(payload ? { payload } : {}),
    })
  const audit = async () => (await call('GET', '/api/admin/audit', admin)).json().results

  it('creates a class with its first columns, audited, and refuses it a second time', async () => {
    const made = await call('POST', '/api/admin/classes', admin, {
      name: 'Planet',
      fields: { title: { type: 'string' }, moon: { type: 'pointer', targetClass: 'Planet' } },
    })
    expect(made.statusCode, made.body).toBe(201)
    const fields = { title: { type: 'string' }, moon: { type: 'pointer', targetClass: 'Planet' } }
    expect(made.json()).toEqual({ className: 'Planet', fields })
    expect((await call('GET', '/api/admin/classes/Planet/fields', viewer)).json()).toEqual({
      fields,
    })
    expect((await audit())[0]).toMatchObject({
      actor: admin.user.address,
      action: 'class.create',
      target: 'Planet',
      after: { fields },
    })
    // Listed with the classes that hold objects before it holds one.
    const overview = (await call('GET', '/api/admin/overview', viewer)).json()
    expect(overview.classes).toContainEqual({ className: 'Planet', count: 0 })
    const again = await call('POST', '/api/admin/classes', admin, { name: 'Planet' })
    expect(again.statusCode).toBe(409)
    expect(again.json().error).toMatchObject({ code: 'class_exists' })
    expect(again.json().error.message).toMatch(/pick another name/)
  })

  it('creates a class with no columns yet, and refuses one that has objects or a schema', async () => {
    expect((await call('POST', '/api/admin/classes', admin, { name: 'Empty' })).statusCode).toBe(
      201,
    )
    expect((await call('POST', '/api/admin/classes', admin, { name: 'Empty' })).statusCode).toBe(
      409,
    )
    const member = await signedIn(app)
    await call('POST', '/api/classes/Saved', member, { data: { n: 1 } })
    const taken = await call('POST', '/api/admin/classes', admin, { name: 'Saved' })
    expect(taken.statusCode).toBe(409)
    // A class with a schema of its own (Parse's, as an import keeps it) and no objects yet.
    const now = new Date()
    await app.services.objects.insertAbsent([
      {
        className: '_SCHEMA',
        id: 'Schemed',
        ownerId: admin.user.id,
        acl: {},
        data: { fields: { title: { type: 'String' } } },
        createdAt: now,
        updatedAt: now,
      },
    ])
    expect((await call('POST', '/api/admin/classes', admin, { name: 'Schemed' })).statusCode).toBe(
      409,
    )
    expect((await call('GET', '/api/admin/classes/Saved/fields', admin)).json().fields).toEqual({})
  })

  it('refuses a bad class name or field, saying what to do, and declares nothing', async () => {
    for (const name of ['1st', '_User', 'has space', 'x'.repeat(65)]) {
      const bad = await call('POST', '/api/admin/classes', admin, { name })
      expect(bad.statusCode, name).toBe(400)
    }
    const named = (await call('POST', '/api/admin/classes', admin, { name: '1st' })).json()
    expect(named.error).toMatchObject({ code: 'invalid_class_name' })
    expect(named.error.message).toMatch(/start with a letter/)
    const field = await call('POST', '/api/admin/classes', admin, {
      name: 'Broken',
      fields: { ok: { type: 'string' }, link: { type: 'pointer' } },
    })
    expect(field.statusCode).toBe(400)
    expect(field.json().error.message).toMatch(/names the class it points to/)
    const reserved = await call('POST', '/api/admin/classes', admin, {
      name: 'Broken',
      fields: { objectId: { type: 'string' } },
    })
    expect(reserved.json().error).toMatchObject({ code: 'invalid_field_name' })
    // Nothing was declared: the name is still free.
    expect((await call('POST', '/api/admin/classes', admin, { name: 'Broken' })).statusCode).toBe(
      201,
    )
  })

  it('creates an object of typed values as the admin, audited, shown in the class at once', async () => {
    const data = {
      title: 'Mars',
      mass: 0.107,
      inhabited: false,
      seen: { __type: 'Date', iso: '2026-01-02T03:04:05.000Z' },
      at: { __type: 'GeoPoint', latitude: 4.5, longitude: 137.4 },
      tags: ['red', 'fourth'],
      facts: { moons: 2 },
    }
    const made = await call('POST', '/api/admin/classes/Planet', admin, { data })
    expect(made.statusCode, made.body).toBe(201)
    const object = made.json()
    expect(object).toMatchObject({ className: 'Planet', owner: admin.user.id, data })
    // The class's defaults: the creator reads and writes it, nobody else.
    expect(object.acl).toEqual({ [admin.user.id]: { read: true, write: true } })
    const page = (await call('GET', '/api/admin/classes/Planet', viewer)).json()
    expect(page.results.map((o: { objectId: string }) => o.objectId)).toContain(object.objectId)
    expect((await audit())[0]).toMatchObject({
      actor: admin.user.address,
      action: 'object.create',
      target: `Planet/${object.objectId}`,
    })
    const withAcl = await call('POST', '/api/admin/classes/Planet', admin, {
      data: {
        title: 'Venus',
        moon: { __type: 'Pointer', className: 'Planet', objectId: object.objectId },
      },
      acl: { '*': { read: true }, [viewer.user.address]: { read: true, write: true } },
    })
    expect(withAcl.statusCode, withAcl.body).toBe(201)
    expect(withAcl.json().acl).toEqual({
      '*': { read: true },
      [viewer.user.id]: { read: true, write: true },
    })
  })

  it('refuses a bad value with what to do, and saves nothing', async () => {
    const before = (await call('GET', '/api/admin/classes/Planet?count=1', admin)).json().count
    const dangling = await call('POST', '/api/admin/classes/Planet', admin, {
      data: { moon: { __type: 'Pointer', className: 'Planet', objectId: 'nope' } },
    })
    expect(dangling.statusCode).toBe(400)
    expect(dangling.json().error).toMatchObject({ code: 'invalid_reference' })
    expect(dangling.json().error.message).toMatch(/pick an existing Planet/)
    const badDate = await call('POST', '/api/admin/classes/Planet', admin, {
      data: { seen: { __type: 'Date', iso: 'yesterday' } },
    })
    expect(badDate.statusCode).toBe(400)
    const badAcl = await call('POST', '/api/admin/classes/Planet', admin, {
      data: { title: 'Pluto' },
      acl: { 'role:nobody': { read: true } },
    })
    expect(badAcl.statusCode).toBe(400)
    expect(badAcl.json().error.message).toMatch(/create it under Roles first/)
    const name = await call('POST', '/api/admin/classes/no%20such', admin, { data: {} })
    expect(name.statusCode).toBe(400)
    const user = await call('POST', '/api/admin/classes/_User', admin, { data: {} })
    expect(user.json().error.message).toMatch(/signing in with a wallet/)
    expect((await call('GET', '/api/admin/classes/Planet?count=1', admin)).json().count).toBe(
      before,
    )
  })

  it('refuses a viewer both creates as read-only, and creates nothing', async () => {
    const count = (await audit()).length
    for (const [url, body] of [
      ['/api/admin/classes', { name: 'Viewed' }],
      ['/api/admin/classes/Planet', { data: { title: 'Ceres' } }],
    ] as const) {
      const refused = await call('POST', url, viewer, body)
      expect(refused.statusCode, url).toBe(403)
      expect(refused.json().error.code).toBe('read_only')
    }
    expect((await audit()).length).toBe(count)
    expect((await call('POST', '/api/admin/classes', admin, { name: 'Viewed' })).statusCode).toBe(
      201,
    )
  })

  it('applies a create retried with the same Idempotency-Key once, answering it again', async () => {
    const key = { 'idempotency-key': `create-class-${kind}` }
    const first = await call('POST', '/api/admin/classes', admin, { name: 'Retried' }, key)
    const retry = await call('POST', '/api/admin/classes', admin, { name: 'Retried' }, key)
    expect([first.statusCode, retry.statusCode]).toEqual([201, 201])
    expect(retry.json()).toEqual(first.json())
    const rowKey = { 'idempotency-key': `create-row-${kind}` }
    const row = { data: { title: 'once' } }
    const made = await call('POST', '/api/admin/classes/Retried', admin, row, rowKey)
    const again = await call('POST', '/api/admin/classes/Retried', admin, row, rowKey)
    expect([made.statusCode, again.statusCode]).toEqual([201, 201])
    expect(again.json().objectId).toBe(made.json().objectId)
    const page = (await call('GET', '/api/admin/classes/Retried?count=1', admin)).json()
    expect(page.count).toBe(1)
    const creates = (await audit()).filter((e: { target: string }) => e.target === 'Retried')
    expect(creates).toHaveLength(1)
  })
})
