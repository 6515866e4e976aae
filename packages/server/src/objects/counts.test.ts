import { sql } from 'drizzle-orm'
import { getAddress } from 'viem'
import { describe, expect, it } from 'vitest'
import {
  clusteredDatabase,
  databaseKinds,
  signedIn,
  testApp,
  testConfig,
} from '../../test/helpers.ts'
import type { Database } from '../db/client.ts'
import { readableBy } from './access.ts'
import { parseWhere } from './condition.ts'
import { FieldIndexes } from './field-indexes.ts'
import { countStatement, queryObjects } from './pages.ts'
import { translateWhere } from './query.ts'

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows

/** `n` objects of `className`, owned in turn by u1 and u2, every other pair public. */
async function fill(db: Database, className: string, n: number) {
  await db.execute(sql`insert into users (id, address) values ('u1', '0x01'), ('u2', '0x02')
                       on conflict do nothing`)
  await db.execute(sql`
    insert into objects (class_name, id, owner_id, read_perm, write_perm, data, created_at)
    select ${className}, 'o' || g, o.id,
           case when g % 4 < 2 then array['*', o.id] else array[o.id] end, array[o.id],
           jsonb_build_object('kind', 'k' || (g % 25), 'score', g),
           timestamptz '2026-01-01' + g * interval '1 second'
    from generate_series(1, ${n}) as g,
      lateral (select case when g % 2 = 0 then 'u1' else 'u2' end as id) as o`)
}

/** u1 reads its own objects (even g) and the public ones (g % 4 < 2): all but g % 4 = 3. */
const readableByU1 = (n: number, keep: (g: number) => boolean = () => true) =>
  Array.from({ length: n }, (_, i) => i + 1).filter((g) => g % 4 !== 3 && keep(g)).length

describe.each(databaseKinds())('counts on %s', (kind) => {
  it('are exact, read a class or an owner’s objects from the index alone, and stop at a limit', async () => {
    const { db, close, cluster } = await clusteredDatabase(kind)
    const errors: unknown[] = []
    const indexes = new FieldIndexes(db, cluster, (e) => errors.push(e), {
      threshold: 1,
      minRows: 500,
      perClass: 2,
      total: 10,
    })
    try {
      await fill(db, 'Item', 4000)
      await fill(db, 'Other', 1000)
      const count = async (where: object, countLimit?: number) => {
        const condition = parseWhere(where)
        const plan = indexes.planQuery('Item', condition, undefined)
        await indexes.idle()
        const answer = await queryObjects(db, {
          className: 'Item',
          viewer: ['*', 'u1'],
          where: translateWhere(condition),
          orderBy: [],
          limit: 0,
          skip: 0,
          count: true,
          countLimit,
          maxBytes: 1_000_000,
          ...plan,
        })
        return { count: answer.count, byIndex: plan.countByIndex }
      }
      // Asked twice: `kind` gets its index.
      await count({ kind: 'k3' })
      await count({ kind: 'k3' })
      expect(errors).toEqual([])

      expect(await count({})).toEqual({ count: readableByU1(4000), byIndex: true })
      expect(await count({ owner: 'u2' })).toEqual({
        count: readableByU1(4000, (g) => g % 2 === 1),
        byIndex: true,
      })
      expect(await count({ kind: 'k3' })).toEqual({
        count: readableByU1(4000, (g) => g % 25 === 3),
        byIndex: true,
      })
      // An unindexed field, or an `$or`, is left to the planner, and counted the same.
      expect(await count({ score: { $lt: 100 } })).toEqual({
        count: readableByU1(99),
        byIndex: false,
      })
      expect(await count({ $or: [{ kind: 'k3' }, { kind: 'k4' }] })).toEqual({
        count: readableByU1(4000, (g) => g % 25 === 3 || g % 25 === 4),
        byIndex: false,
      })
      // A limit: one past it when there are more, else the count.
      expect((await count({}, 100)).count).toBe(101)
      expect((await count({ kind: 'k3' }, 10_000)).count).toBe(
        readableByU1(4000, (g) => g % 25 === 3),
      )

      // A class's count reads the index alone: the access rule's list is in the index, once a
      // vacuum (PostgreSQL's autovacuum; here, at once) has marked the pages all-visible.
      await db.execute(sql`vacuum objects`)
      const lines = await db.transaction(async (tx) => {
        await tx.execute(sql`set local enable_bitmapscan = off`)
        await tx.execute(sql`set local enable_seqscan = off`)
        return rowsOf<Record<string, string>>(
          await tx.execute(
            sql`explain (analyze, costs off) ${countStatement(readableBy('Item', ['*', 'u1']))}`,
          ),
        ).map((row) => Object.values(row)[0])
      })
      const plan = lines.join('\n')
      expect(plan).toContain('Index Only Scan')
      expect(plan).toMatch(/Heap Fetches: 0/)
    } finally {
      await indexes.close()
      await close()
    }
  })

  it('the console asks for at most a number, and is told when there are more', async () => {
    const ADMIN = getAddress(`0x${'a1'.repeat(20)}`)
    const base = testConfig()
    const { app, database, close } = await testApp(kind, {
      app: { ...base.app, adminAddresses: [ADMIN] },
    })
    try {
      const { headers } = await signedIn(app, ADMIN)
      await fill(database.db, 'Item', 30)
      const ask = (query: string) =>
        app.inject({ url: `/api/admin/classes/Item?limit=1&count=1${query}`, headers })
      const capped = await ask('&countLimit=10')
      expect(capped.statusCode).toBe(200)
      expect(capped.json()).toMatchObject({ count: 10, countCapped: true })
      const exact = await ask('&countLimit=30')
      expect(exact.json()).toMatchObject({ count: 30 })
      expect(exact.json()).not.toHaveProperty('countCapped')
      expect((await ask('')).json()).toMatchObject({ count: 30 })
      const bad = await ask('&countLimit=ten')
      expect(bad.statusCode).toBe(400)
    } finally {
      await close()
    }
  })
})
