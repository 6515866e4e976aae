import { beforeAll, describe, expect, it } from 'vitest'
import type { FastifyInstance } from 'fastify'
import { databaseKinds, signedIn, testApp } from '../../test/helpers.ts'
import { ANY_OWNER } from './access.ts'
import type { Acl } from './acl.ts'
import { SCHEMA_CLASS } from './class-permissions.ts'

// A class whose permissions let a user read only the objects naming them in a pointer field
// (`readUserFields`): a get by id and a read of many by key find exactly what a query finds,
// the pointer constraint decided by the database in the read's own statement.

describe.each(databaseKinds())('pointer permissions on a get and a read by key on %s', (kind) => {
  let app: FastifyInstance
  let alice: Awaited<ReturnType<typeof signedIn>>
  let bob: Awaited<ReturnType<typeof signedIn>>
  let carol: Awaited<ReturnType<typeof signedIn>>
  const pointer = (id: string) => ({ __type: 'Pointer', className: '_User', objectId: id })
  beforeAll(async () => {
    ;({ app } = await testApp(kind))
    ;[alice, bob, carol] = [await signedIn(app), await signedIn(app), await signedIn(app)]
    const now = new Date()
    const row = (id: string, data: Record<string, unknown>) => ({
      className: 'Diary',
      id,
      ownerId: alice.user.id,
      acl: { '*': { read: true } } as Acl,
      data,
      createdAt: now,
      updatedAt: now,
    })
    await app.services.objects.insertAbsent([
      {
        ...row('Diary', {
          fields: {},
          // Operations left out are the master key's alone.
          classLevelPermissions: { get: {}, readUserFields: ['author'] },
        }),
        className: SCHEMA_CLASS,
        acl: {},
      },
      row('by-alice', { author: pointer(alice.user.id) }),
      row('for-bob', { author: [pointer(carol.user.id), pointer(bob.user.id)] }),
    ])
  })

  it('gets an object only for the users its pointer fields name', async () => {
    const { objects } = app.services
    const found = async (id: string, who: string | typeof ANY_OWNER | undefined) =>
      (await objects.get('Diary', id, who))?.objectId ?? null
    expect(await found('by-alice', alice.user.id)).toBe('by-alice')
    expect(await found('for-bob', alice.user.id)).toBeNull()
    expect(await found('for-bob', bob.user.id)).toBe('for-bob')
    expect(await found('for-bob', carol.user.id)).toBe('for-bob')
    expect(await found('by-alice', carol.user.id)).toBeNull()
    expect(await found('by-alice', undefined)).toBeNull()
    expect(await found('by-alice', ANY_OWNER)).toBe('by-alice')
    // The same through `/api`: what the user may not read does not exist for them.
    const get = (id: string, headers: Record<string, string>) =>
      app.inject({ method: 'GET', url: `/api/classes/Diary/${id}`, headers })
    expect((await get('by-alice', alice.headers)).statusCode).toBe(200)
    expect((await get('by-alice', bob.headers)).statusCode).toBe(404)
  })

  it('reads by key only what each user may get', async () => {
    const keys = ['by-alice', 'for-bob', 'missing'].map((objectId) => ({
      className: 'Diary',
      objectId,
    }))
    const read = async (who: string | undefined) =>
      [...(await app.services.objects.readable(keys, who)).keys()].sort()
    expect(await read(alice.user.id)).toEqual(['Diary/by-alice'])
    expect(await read(bob.user.id)).toEqual(['Diary/for-bob'])
    expect(await read(carol.user.id)).toEqual(['Diary/for-bob'])
    expect(await read(undefined)).toEqual([])
  })
})
