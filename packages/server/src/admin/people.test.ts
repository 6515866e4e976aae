import type { FastifyInstance } from 'fastify'
import { getAddress } from 'viem'
import { beforeAll, describe, expect, it } from 'vitest'
import { placeholderLabel } from '@portico/sdk/wire'
import { databaseKinds, signedIn, testApp, testConfig } from '../../test/helpers.ts'
import { users } from '../db/schema.ts'
import { importFile } from '../import/parse-import.ts'
import { MASTER_OWNER } from '../compat/master-key.ts'
import { SYNC_OWNER } from '../sync/store.ts'
import { IMPORT_OWNER } from '../import/parse-import.ts'
import { DELETED_OWNER } from '../auth/delete-user.ts'
import { VISITOR_OWNER } from '../objects/object-store.ts'

// The console's Users and its overview count people: the server's own principals (the owner
// of synced rows, of an import's objects, of the master key's writes…) are users only so that
// objects can name an owner, and are left out.

const ADMIN = getAddress(`0x${'a9'.repeat(20)}`)

describe.each(databaseKinds())('people in the console on %s', (kind) => {
  let app: FastifyInstance
  let admin: Record<string, string>
  let member: Awaited<ReturnType<typeof signedIn>>
  beforeAll(async () => {
    const base = testConfig()
    ;({ app } = await testApp(kind, { app: { ...base.app, adminAddresses: [ADMIN] } }))
    admin = (await signedIn(app, ADMIN)).headers
    member = await signedIn(app)
    // An import with no known writer makes its objects the import's.
    const imported = await importFile(app.services.database.db, app.services.objects, {
      name: 'Legacy.json',
      text: JSON.stringify({
        results: [
          {
            objectId: 'Legacy0001',
            title: 'kept',
            createdAt: '2021-06-01T10:00:00.000Z',
            updatedAt: '2021-06-01T10:00:00.000Z',
          },
        ],
      }),
    })
    expect(imported, JSON.stringify(imported)).toMatchObject({ imported: 1 })
    for (const owner of [SYNC_OWNER, MASTER_OWNER, VISITOR_OWNER, DELETED_OWNER])
      await app.services.database.db.insert(users).values(owner).onConflictDoNothing()
  })
  const get = (url: string) => app.inject({ method: 'GET', url, headers: admin })

  it('are named by what they are, by id or by address', () => {
    expect(placeholderLabel(IMPORT_OWNER.id)).toBe('import')
    expect(placeholderLabel(MASTER_OWNER.address)).toBe('master key')
    expect(placeholderLabel(SYNC_OWNER.address.toUpperCase())).toBe('sync')
    expect(placeholderLabel(member.user.address)).toBeUndefined()
    expect(placeholderLabel(member.user.id)).toBeUndefined()
  })

  it('lists and counts people only', async () => {
    const listed = (await get('/api/admin/users')).json().results.map((u: { id: string }) => u.id)
    expect(listed.sort()).toEqual([member.user.id, (await signedIn(app, ADMIN)).user.id].sort())
    expect((await get('/api/admin/overview')).json().users).toBe(2)
    expect((await get('/api/admin/users?search=0x00000000')).json().results).toEqual([])
    // Their objects stay, owned by what wrote them.
    const legacy = (await get('/api/admin/classes/Legacy')).json()
    expect(legacy.results[0].owner).toBe(IMPORT_OWNER.id)
  })
})
