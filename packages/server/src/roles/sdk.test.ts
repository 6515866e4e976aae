import type { FastifyInstance } from 'fastify'
import { beforeAll, describe, expect, it } from 'vitest'
import {
  aclOf,
  addToRole,
  createBackendClient,
  createRole,
  deleteRole,
  fetchObject,
  getRole,
  listRoles,
  queryObjects,
  removeFromRole,
  saveObject,
  type BackendClient,
} from '@portico/sdk/backend'
import { BackendError } from '@portico/sdk/errors'
import { databaseKinds, signedIn, testApp } from '../../test/helpers.ts'

// The SDK's role functions and `aclOf` against the real server (listening on 127.0.0.1).

describe.each(databaseKinds())('SDK roles against the server on %s', (kind) => {
  let app: FastifyInstance
  let alice: BackendClient
  let bob: BackendClient
  let bobUser: { id: string; address: string }
  let aliceId: string
  beforeAll(async () => {
    ;({ app } = await testApp(kind))
    const origin = await app.listen({ host: '127.0.0.1', port: 0 })
    const client = (token: string) =>
      createBackendClient({ serverUrl: origin, appId: 'test', token, sleep: async () => {} })
    const a = await signedIn(app)
    const b = await signedIn(app)
    alice = client(a.token)
    bob = client(b.token)
    aliceId = a.user.id
    bobUser = b.user
  })

  it('makes a role, gives it an object through aclOf, and its members read it until removed', async () => {
    const role = await createRole(alice, { name: 'Reviewers', users: [bobUser.address] })
    expect(role).toMatchObject({ name: 'Reviewers', users: [bobUser.id], userCount: 1 })
    expect(role.createdAt).toBeInstanceOf(Date)
    const saved = await saveObject(alice, {
      className: 'Draft',
      data: { title: 'for review' },
      acl: aclOf({ users: { [aliceId]: 'rw' }, roles: { Reviewers: 'r' } }),
    })
    expect(saved.acl).toEqual({
      [aliceId]: { read: true, write: true },
      'role:Reviewers': { read: true },
    })
    const ref = { className: 'Draft', objectId: saved.objectId }
    expect((await fetchObject(bob, ref)).data).toEqual({ title: 'for review' })
    expect((await queryObjects(bob, { className: 'Draft' })).results).toHaveLength(1)
    // A reader cannot change it: the ACL gives the role read only.
    const refused = await saveObject(bob, { ...saved, data: { title: 'mine' } }).catch(
      (e: unknown) => e,
    )
    expect(refused).toMatchObject({ status: 403, code: 'forbidden' })

    const listed = await listRoles(bob)
    expect(listed.results.map((r) => r.name)).toContain('Reviewers')
    expect((await getRole(bob, 'Reviewers')).users).toEqual([bobUser.id])
    expect((await removeFromRole(alice, 'Reviewers', { users: [bobUser.id] })).users).toEqual([])
    const hidden = await fetchObject(bob, ref).catch((e: unknown) => e)
    expect(hidden).toBeInstanceOf(BackendError)
    expect(hidden).toMatchObject({ status: 404 })
    // A member cannot put themselves back.
    const joined = await addToRole(bob, 'Reviewers', { users: [bobUser.id] }).catch(
      (e: unknown) => e,
    )
    expect(joined).toMatchObject({ status: 403, code: 'forbidden' })
  })

  it('answers a taken name and a missing role with their codes, and deletes', async () => {
    await createRole(alice, { name: 'Owners' })
    const taken = await createRole(bob, { name: 'Owners' }).catch((e: unknown) => e)
    expect(taken).toMatchObject({ status: 409, code: 'role_name_taken' })
    await deleteRole(alice, 'Owners')
    expect(await getRole(alice, 'Owners').catch((e: unknown) => e)).toMatchObject({
      status: 404,
      code: 'not_found',
    })
  })
})
