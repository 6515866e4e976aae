import type { FastifyInstance } from 'fastify'
import { getAddress } from 'viem'
import { beforeAll, describe, expect, it } from 'vitest'
import { databaseKinds, signedIn, testApp, testConfig } from '../../test/helpers.ts'
import type { Sync } from '../sync/definition.ts'
import { classDefaults } from './class-defaults.ts'

describe('class defaults', () => {
  it('say a synced class is written by its sync alone, readable by all as the sync says', () => {
    const sync = { name: 'transfers', className: 'Transfer', publicRead: true } as Sync
    expect(classDefaults('Transfer', [sync])).toEqual({
      className: 'Transfer',
      writers: 'sync',
      sync: 'transfers',
      newObject: { creator: 'none', public: 'read' },
    })
    expect(classDefaults('Transfer', [{ ...sync, publicRead: false }]).newObject.public).toBe(
      'none',
    )
    expect(classDefaults('Note', [sync]).writers).toBe('users')
  })
})

const ADMIN = getAddress(`0x${'a1'.repeat(20)}`)

describe.each(databaseKinds())("the console's columns and bulk deletes on %s", (kind) => {
  let app: FastifyInstance
  let admin: Record<string, string>
  const ids: string[] = []
  beforeAll(async () => {
    const base = testConfig()
    ;({ app } = await testApp(kind, { app: { ...base.app, adminAddresses: [ADMIN] } }))
    admin = (await signedIn(app, ADMIN)).headers
    const member = await signedIn(app)
    for (const [title, score] of [
      ['alpha', 3],
      ['beta', 9],
      ['gamma', 5],
    ] as const) {
      const made = await app.inject({
        method: 'POST',
        url: '/api/classes/Card',
        headers: member.headers,
        payload: { data: { title, score } },
      })
      ids.push(made.json().objectId)
    }
  })
  const call = (method: string, url: string, payload?: object) =>
    app.inject({ method: method as 'GET', url, headers: admin, ...(payload ? { payload } : {}) })

  it("shows a class's defaults, which are what a new object gets", async () => {
    const answer = await call('GET', '/api/admin/classes/Card/defaults')
    expect(answer.statusCode).toBe(200)
    expect(answer.json()).toEqual({
      className: 'Card',
      writers: 'users',
      sync: null,
      newObject: { creator: 'read-write', public: 'on-request' },
    })
    // A member's object saved without an ACL or publicRead: its creator alone reads and writes.
    const page = (await call('GET', '/api/admin/classes/Card?order=createdAt&limit=1')).json()
    const [first] = page.results
    expect(first.acl).toEqual({ [first.owner]: { read: true, write: true } })
    expect((await call('GET', '/api/admin/classes/no%20such/defaults')).statusCode).toBe(400)
  })

  it('declares a typed column, and refuses a pointer without its class', async () => {
    const added = await call('POST', '/api/admin/classes/Card/fields', {
      name: 'author',
      type: 'pointer',
      targetClass: '_User',
    })
    expect(added.statusCode).toBe(200)
    expect(added.json().fields).toEqual({ author: { type: 'pointer', targetClass: '_User' } })
    const bad = await call('POST', '/api/admin/classes/Card/fields', {
      name: 'link',
      type: 'pointer',
    })
    expect(bad.statusCode).toBe(400)
    const reserved = await call('POST', '/api/admin/classes/Card/fields', {
      name: 'objectId',
      type: 'string',
    })
    expect(reserved.statusCode).toBe(400)
    expect((await call('GET', '/api/admin/classes/Card/fields')).json().fields).toHaveProperty(
      'author',
    )
    // Polygon and Bytes are column types of their own, as in Parse.
    for (const type of ['polygon', 'bytes'])
      expect(
        (await call('POST', '/api/admin/classes/Card/fields', { name: `a${type}`, type }))
          .statusCode,
      ).toBe(200)
    expect((await call('GET', '/api/admin/classes/Card/fields')).json().fields).toMatchObject({
      apolygon: { type: 'polygon' },
      abytes: { type: 'bytes' },
    })
    const unknown = await call('POST', '/api/admin/classes/Card/fields', {
      name: 'shape',
      type: 'shape',
    })
    expect(unknown.statusCode).toBe(400)
    for (const name of ['apolygon', 'abytes'])
      await call('DELETE', `/api/admin/classes/Card/fields/${name}`)
  })

  it('removes a field from every object of the class and forgets its column', async () => {
    const removed = await call('DELETE', '/api/admin/classes/Card/fields/score')
    expect(removed.json()).toEqual({ changed: 3 })
    const page = (await call('GET', '/api/admin/classes/Card')).json()
    expect(page.results.map((o: { data: object }) => o.data)).not.toContainEqual(
      expect.objectContaining({ score: expect.anything() }),
    )
    expect((await call('DELETE', '/api/admin/classes/Card/fields/author')).json()).toEqual({
      changed: 0,
    })
    expect((await call('GET', '/api/admin/classes/Card/fields')).json().fields).toEqual({})
    expect((await call('DELETE', '/api/admin/classes/Card/fields/nothing')).statusCode).toBe(404)
  })

  it('deletes a selection, saying which ids were gone already', async () => {
    const answer = await call('POST', '/api/admin/classes/Card/delete', {
      ids: [ids[0], ids[1], 'missing1'],
    })
    expect(answer.json()).toEqual({ deleted: [ids[0], ids[1]], missing: ['missing1'] })
    const left = (await call('GET', '/api/admin/classes/Card?count=1')).json()
    expect(left.count).toBe(1)
    const audit = (await call('GET', '/api/admin/audit')).json().results
    expect(audit.filter((e: { action: string }) => e.action === 'object.delete')).toHaveLength(2)
    expect((await call('POST', '/api/admin/classes/Card/delete', { ids: [] })).statusCode).toBe(400)
  })
})
