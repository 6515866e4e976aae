import { sql } from 'drizzle-orm'
import { getAddress } from 'viem'
import { describe, expect, it } from 'vitest'
import { databaseKinds, signedIn, testApp, testConfig } from '../../test/helpers.ts'
import { fieldIndexName } from '../objects/field-indexes.ts'

const ADMIN = getAddress(`0x${'a1'.repeat(20)}`)
const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows

describe.each(databaseKinds())('the console’s class indexes on %s', (kind) => {
  it('lists the indexes built for a class’s queries with their use, and removes one for good', async () => {
    const base = testConfig()
    const { app, database } = await testApp(kind, {
      app: { ...base.app, adminAddresses: [ADMIN] },
    })
    const { headers } = await signedIn(app, ADMIN)
    const db = database.db
    await db.execute(sql`insert into users (id, address) values ('u1', '0x01')`)
    await db.execute(sql`
      insert into objects (class_name, id, owner_id, read_perm, write_perm, data)
      select 'Item', 'o' || g, 'u1', array['*'], array['u1'], jsonb_build_object('kind', 'k' || (g % 25))
      from generate_series(1, 2500) as g`)
    const classUrl = `/api/admin/classes/Item`
    const ask = () => app.inject({ url: `${classUrl}?where={"kind":"k3"}&limit=5`, headers })
    const list = async () =>
      (await app.inject({ url: `${classUrl}/indexes`, headers })).json() as {
        indexes: { field: string; indexName: string; scans: number; bytes: number }[]
      }
    // Asked often enough, `kind` gets its index (built in the background).
    for (let i = 0; i < 5; i++) expect((await ask()).statusCode).toBe(200)
    let listed = await list()
    for (let wait = 0; listed.indexes.length === 0 && wait < 200; wait++) {
      await new Promise((resolve) => setTimeout(resolve, 50))
      listed = await list()
    }
    expect(listed.indexes).toMatchObject([
      { field: 'kind', indexName: fieldIndexName('Item', 'kind') },
    ])
    expect(listed.indexes[0]!.bytes).toBeGreaterThan(0)
    // Each page the index serves is one more read of it.
    const before = listed.indexes[0]!.scans
    for (let i = 0; i < 3; i++) await ask()
    let scans = before
    for (let wait = 0; scans < before + 3 && wait < 60; wait++) {
      await new Promise((resolve) => setTimeout(resolve, 50))
      scans = (await list()).indexes[0]!.scans
    }
    expect(scans).toBeGreaterThanOrEqual(before + 3)

    // Removed: gone from the database and the list, recorded, and not built again.
    const removed = await app.inject({ method: 'DELETE', url: `${classUrl}/indexes/kind`, headers })
    expect(removed.statusCode).toBe(204)
    expect((await list()).indexes).toEqual([])
    const present = await db.execute(
      sql`select 1 from pg_indexes where indexname = ${fieldIndexName('Item', 'kind')}`,
    )
    expect(rowsOf(present)).toEqual([])
    for (let i = 0; i < 10; i++) expect((await ask()).statusCode).toBe(200)
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect((await list()).indexes).toEqual([])
    const audit = await db.execute(
      sql`select action, target from admin_audit where action = 'class.index.remove'`,
    )
    expect(rowsOf(audit)).toEqual([{ action: 'class.index.remove', target: 'Item.kind' }])

    // Again, or an index that never was: 404; a malformed name: 400.
    const again = await app.inject({ method: 'DELETE', url: `${classUrl}/indexes/kind`, headers })
    expect(again.statusCode).toBe(404)
    const bad = await app.inject({ method: 'DELETE', url: `${classUrl}/indexes/a%20b`, headers })
    expect(bad.statusCode).toBe(400)
  })
})
