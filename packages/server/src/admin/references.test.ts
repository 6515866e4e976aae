import type { FastifyInstance } from 'fastify'
import { getAddress } from 'viem'
import { beforeAll, describe, expect, it } from 'vitest'
import { databaseKinds, signedIn, testApp, testConfig } from '../../test/helpers.ts'

// The console saves only references that resolve: a pointer to an object that exists in its
// class, an ACL naming users and roles that exist. A refused edit says what to do and saves
// nothing; what an object already held (an import's dangling pointer) does not block an edit of
// its other fields.

const ADMIN = getAddress(`0x${'a7'.repeat(20)}`)

describe.each(databaseKinds())('references checked by the console on %s', (kind) => {
  let app: FastifyInstance
  let admin: Record<string, string>
  let member: Awaited<ReturnType<typeof signedIn>>
  let noteId: string
  let tagId: string
  beforeAll(async () => {
    const base = testConfig()
    ;({ app } = await testApp(kind, { app: { ...base.app, adminAddresses: [ADMIN] } }))
    admin = (await signedIn(app, ADMIN)).headers
    member = await signedIn(app)
    const create = async (className: string, data: object) => {
      const made = await app.inject({
        method: 'POST',
        url: `/api/classes/${className}`,
        headers: member.headers,
        payload: { data },
      })
      expect(made.statusCode, made.body).toBe(201)
      return made.json().objectId as string
    }
    tagId = await create('Tag', { label: 'news' })
    noteId = await create('Note', { title: 'first' })
    const role = await app.inject({
      method: 'POST',
      url: '/api/admin/roles',
      headers: admin,
      payload: { name: 'Editors' },
    })
    expect(role.statusCode, role.body).toBe(201)
  })

  const edit = (payload: object, id = noteId) =>
    app.inject({ method: 'PUT', url: `/api/admin/classes/Note/${id}`, headers: admin, payload })
  const stored = async (id = noteId) =>
    (
      await app.inject({
        method: 'GET',
        url: `/api/admin/classes/Note?where=${encodeURIComponent(JSON.stringify({ objectId: id }))}`,
        headers: admin,
      })
    ).json().results[0]
  const pointer = (className: string, objectId: string) => ({
    __type: 'Pointer',
    className,
    objectId,
  })

  it('refuses a pointer to an object that does not exist, and saves nothing', async () => {
    const refused = await edit({ data: { title: 'changed', tag: pointer('Tag', 'nosuchtag') } })
    expect(refused.statusCode).toBe(400)
    expect(refused.json().error).toMatchObject({
      code: 'invalid_reference',
      message: expect.stringMatching(/"tag" points to Tag "nosuchtag", which does not exist/),
    })
    const nested = await edit({ data: { title: 'x', links: [{ to: pointer('Tag', 'gone') }] } })
    expect(nested.json().error.message).toMatch(/"links.to" points to Tag "gone"/)
    const ghost = await edit({ data: { title: 'x', author: pointer('_User', 'ghost') } })
    expect(ghost.json().error.message).toMatch(/search by id, username, email or address/)
    expect((await stored()).data).toEqual({ title: 'first' })

    const saved = await edit({
      data: {
        title: 'tagged',
        tag: pointer('Tag', tagId),
        author: pointer('_User', member.user.id),
      },
    })
    expect(saved.statusCode, saved.body).toBe(200)
    expect((await stored()).data.tag).toEqual(pointer('Tag', tagId))
  })

  it('refuses an ACL naming a role or user that does not exist, and saves nothing', async () => {
    const before = (await stored()).acl
    const role = await edit({
      data: { title: 'tagged' },
      acl: { 'role:Editorz': { read: true } },
    })
    expect(role.statusCode).toBe(400)
    expect(role.json().error).toMatchObject({
      code: 'invalid_reference',
      message: expect.stringMatching(/the role "Editorz", which does not exist: create it/),
    })
    const user = await edit({ data: { title: 'tagged' }, acl: { nobody123: { read: true } } })
    expect(user.json().error).toMatchObject({
      code: 'invalid_reference',
      message: expect.stringMatching(/the user "nobody123", who does not exist/),
    })
    expect((await stored()).acl).toEqual(before)

    const saved = await edit({
      data: { title: 'tagged' },
      acl: { 'role:Editors': { read: true }, [member.user.address]: { read: true, write: true } },
    })
    expect(saved.statusCode, saved.body).toBe(200)
    expect((await stored()).acl).toEqual({
      'role:Editors': { read: true },
      [member.user.id]: { read: true, write: true },
    })
  })

  it('lets a field be edited beside a dangling pointer the object already held', async () => {
    const made = await app.inject({
      method: 'POST',
      url: '/api/classes/Note',
      headers: member.headers,
      payload: { data: { title: 'imported', tag: pointer('Tag', 'deletedlongago') } },
    })
    const id = made.json().objectId as string
    const edited = await edit(
      { data: { title: 'imported, edited', tag: pointer('Tag', 'deletedlongago') } },
      id,
    )
    expect(edited.statusCode, edited.body).toBe(200)
    expect((await stored(id)).data.title).toBe('imported, edited')
  })
})
