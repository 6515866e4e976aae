import { sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { clusteredDatabase, databaseKinds } from '../../test/helpers.ts'
import type { Database } from '../db/client.ts'
import { objectFieldIndexes } from '../db/schema.ts'
import {
  compositeShape,
  FieldIndexes,
  fieldIndexName,
  indexableFields,
  orderField,
} from './field-indexes.ts'
import { parseWhere } from './condition.ts'
import { translateOrder, translateWhere } from './query.ts'
import { queryObjects, recentWindow } from './pages.ts'
import { readableBy } from './access.ts'

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows

/** `n` objects of `className` owned by two users, half of them public. */
async function fill(db: Database, className: string, n: number) {
  await db.execute(sql`insert into users (id, address) values ('u1', '0x01'), ('u2', '0x02')
                       on conflict do nothing`)
  await db.execute(sql`
    insert into objects (class_name, id, owner_id, read_perm, write_perm, data, created_at)
    select ${className}, 'o' || g, o.id,
           case when g % 4 < 2 then array['*', o.id] else array[o.id] end, array[o.id],
           jsonb_build_object('kind', 'k' || (g % 25), 'score', g, 'label', 'item ' || g),
           timestamptz '2026-01-01' + g * interval '1 second'
    from generate_series(1, ${n}) as g,
      lateral (select case when g % 2 = 0 then 'u1' else 'u2' end as id) as o`)
}

async function page(
  db: Database,
  fieldIndexes: FieldIndexes,
  where: object,
  order: string,
  skip = 0,
) {
  const condition = parseWhere(where)
  const plan = fieldIndexes.planQuery('Item', condition, order)
  const { results, count } = await queryObjects(db, {
    className: 'Item',
    viewer: ['*', 'u1'],
    where: translateWhere(condition),
    orderBy: translateOrder(order),
    limit: 20,
    skip,
    count: true,
    maxBytes: 1_000_000,
    ...plan,
  })
  return { ids: results.map((r) => r.objectId), count, plan }
}

describe('the fields a query could use an index on', () => {
  it('are the document fields compared by equality, $in or a range, and the first order key', () => {
    expect(
      indexableFields(
        parseWhere({
          kind: 'a',
          score: { $gte: 1 },
          tags: { $in: ['x'] },
          label: { $regex: '^a' },
          gone: { $exists: false },
          owner: 'u1',
          $or: [{ color: 'red' }, { $and: [{ size: { $lt: 3 } }] }],
        }),
      ).sort(),
    ).toEqual(['color', 'kind', 'score', 'size', 'tags'])
    expect(orderField('-score,name')).toBe('score')
    expect(orderField('-createdAt,score')).toBeUndefined()
  })

  it('make a composite of the equalities at the top of `where`, then the order field', () => {
    const shape = (where: object, order: string | undefined, integers?: Set<string>) =>
      compositeShape(parseWhere(where), order, integers)
    expect(shape({ tag: 't1', kind: 'a', n: { $gt: 1 } }, '-score,name')).toBe('kind,tag|-score')
    expect(shape({ tag: 't1' }, 'score')).toBe('tag|score')
    expect(shape({ tag: 't1' }, '-score', new Set(['score']))).toBe('tag|-score::numeric')
    // None without an equality, with a `$in` or a null one, on the order field itself, on an integer
    // field, under `$or`, or without a document field to sort on.
    expect(shape({ n: { $gt: 1 } }, '-score')).toBeUndefined()
    expect(shape({ tag: null }, '-score')).toBeUndefined()
    expect(shape({ tag: { $in: ['a'] } }, '-score')).toBeUndefined()
    expect(shape({ score: 5 }, '-score')).toBeUndefined()
    expect(shape({ tag: '5' }, '-score', new Set(['tag']))).toBeUndefined()
    expect(shape({ $or: [{ tag: 'a' }, { tag: 'b' }] }, '-score')).toBeUndefined()
    expect(shape({ tag: 't1' }, '-createdAt')).toBeUndefined()
    expect(shape({ tag: 't1' }, undefined)).toBeUndefined()
    expect(shape({ a: 1, b: 1, c: 1, d: 1 }, 'score')).toBeUndefined()
  })
})

describe.each(databaseKinds())('field indexes on %s', (kind) => {
  it('are built for fields queried often in a large class, and then used by its queries', async () => {
    const { db, close, cluster } = await clusteredDatabase(kind)
    const errors: unknown[] = []
    const options = { threshold: 3, minRows: 500, perClass: 2, total: 10 }
    const indexes = new FieldIndexes(db, cluster, (e) => errors.push(e), options)
    try {
      await fill(db, 'Item', 2000)
      await fill(db, 'Small', 100)
      const where = { kind: 'k7' }
      const before = await page(db, indexes, where, '-createdAt')
      expect(before.plan.walkCreationIndex).toBe(true) // no statistics on `kind` yet
      expect(before.count).toBe(60) // of the 80 k7 objects, u1 owns 40 and 20 of u2's are public
      // Asked often enough: built in the background, recorded, and known to this process.
      await page(db, indexes, where, '-createdAt')
      await page(db, indexes, where, '-createdAt')
      await indexes.idle()
      expect(errors).toEqual([])
      expect(indexes.has('Item', 'kind')).toBe(true)
      const recorded = await db.select().from(objectFieldIndexes)
      expect(recorded.map((r) => [r.className, r.field])).toEqual([['Item', 'kind']])
      const [definition] = rowsOf<{ indexdef: string }>(
        await db.execute(
          sql`select indexdef from pg_indexes where indexname = ${fieldIndexName('Item', 'kind')}`,
        ),
      )
      expect(definition?.indexdef).toContain(`WHERE (class_name = 'Item'::text)`)

      // The same answers, now left to the planner rather than the forced walk.
      const after = await page(db, indexes, where, '-createdAt')
      expect(after.plan.walkCreationIndex).toBe(false)
      expect(after).toMatchObject({ ids: before.ids, count: before.count })

      // The planner can take it for the query as the store sends it (field name and value as
      // bound parameters): seq scans made dear to show it is usable, not only present.
      const plan = await db.transaction(async (tx) => {
        await tx.execute(sql`set local enable_seqscan = off`)
        return rowsOf<Record<string, string>>(
          await tx.execute(sql`explain select id from objects
            where class_name = ${'Item'} and (data -> ${'kind'}::text) = ${'"k7"'}::jsonb
            order by created_at desc, id desc limit 20`),
        )
      })
      expect(plan.map((row) => Object.values(row)[0]).join('\n')).toContain(
        fieldIndexName('Item', 'kind'),
      )

      // A small class gets none however often it is asked; the budget per class holds.
      for (let i = 0; i < 6; i++) indexes.planQuery('Small', parseWhere({ kind: 'k1' }), undefined)
      for (const field of ['score', 'label']) {
        for (let i = 0; i < 3; i++)
          indexes.planQuery('Item', parseWhere({ [field]: { $gte: 5 } }), undefined)
        await indexes.idle()
      }
      expect(indexes.has('Small', 'kind')).toBe(false)
      expect([indexes.has('Item', 'score'), indexes.has('Item', 'label')]).toEqual([true, false])

      // Another process (or a restart) knows them from the table.
      const other = new FieldIndexes(db, cluster, (e) => errors.push(e), options)
      await other.load()
      expect(other.has('Item', 'kind') && other.has('Item', 'score')).toBe(true)
      expect(errors).toEqual([])
    } finally {
      await indexes.close()
      await close()
    }
  })

  it('leave a wide range on a newest-first page to a walk of the creation index, not a sort', async () => {
    const { db, close, cluster } = await clusteredDatabase(kind)
    const errors: unknown[] = []
    const options = { threshold: 1, minRows: 500, perClass: 2, total: 10 }
    const indexes = new FieldIndexes(db, cluster, (e) => errors.push(e), options)
    try {
      await fill(db, 'Item', 20_000)
      indexes.planQuery('Item', parseWhere({ score: { $gte: 0 } }), undefined)
      await indexes.idle()
      expect(errors).toEqual([])
      expect(indexes.has('Item', 'score')).toBe(true)
      // Nearly the whole class matches: the newest 20 are found at once by walking creation
      // order. The type check beside the range once made the planner guess a few rows, read
      // them all through the field index and sort them.
      const where = { score: { $gte: 100 } }
      const lines = rowsOf<Record<string, string>>(
        await db.execute(sql`explain select id from objects
          where ${readableBy('Item', ['*', 'u1'])} and ${translateWhere(parseWhere(where))}
          order by ${sql.join(translateOrder('-createdAt'), sql`, `)} limit 20`),
      ).map((row) => Object.values(row)[0])
      const plan = lines.join('\n')
      expect(plan).toContain('objects_class_created_idx')
      expect(plan).not.toContain('Sort')
      const { ids } = await page(db, indexes, where, '-createdAt')
      // u1 reads its own (even g) and the public ones (g % 4 < 2): g % 4 ∈ {0, 1, 2}.
      const readable = Array.from({ length: 20_000 }, (_, i) => 20_000 - i).filter(
        (g) => g % 4 !== 3,
      )
      expect(ids).toEqual(readable.slice(0, 20).map((g) => `o${g}`))
    } finally {
      await indexes.close()
      await close()
    }
  })

  it('find a range newest first among the newest objects, or through the index when it is narrow', async () => {
    const { db, close, cluster } = await clusteredDatabase(kind)
    const errors: unknown[] = []
    const options = { threshold: 1, minRows: 500, perClass: 2, total: 10 }
    const indexes = new FieldIndexes(db, cluster, (e) => errors.push(e), options)
    try {
      const size = 3 * recentWindow
      await fill(db, 'Item', size)
      indexes.planQuery('Item', parseWhere({ score: { $gte: 0 } }), undefined)
      await indexes.idle()
      expect(errors).toEqual([])
      // u1 reads its own (even g) and the public ones (g % 4 < 2); score = g, created in g order.
      const readable = (from: number, to: number) => {
        const all = []
        for (let g = from; g <= to; g++) if (g % 4 !== 3) all.push(`o${g}`)
        return all
      }
      const newest = (from: number, to: number) => readable(from, to).reverse()

      // Wide: the newest objects fill the page.
      const wide = await page(db, indexes, { score: { $gte: 100 } }, '-createdAt')
      expect(wide.plan).toEqual({
        walkCreationIndex: false,
        recentFirst: true,
        walkIndexInOrder: false,
        countByIndex: true,
      })
      expect(wide.ids).toEqual(newest(100, size).slice(0, 20))
      // Narrow and old: none among the newest, so read through the index; with skip too.
      const old = await page(db, indexes, { score: { $lt: 60 } }, '-createdAt')
      expect(old.ids).toEqual(newest(1, 59).slice(0, 20))
      expect(old.count).toBe(readable(1, 59).length)
      const skipped = await page(db, indexes, { score: { $lt: 60 } }, '-createdAt', 30)
      expect(skipped.ids).toEqual(newest(1, 59).slice(30, 50))
      // Only part of a page among the newest: the rest is not lost.
      const straddling = size - recentWindow - 10
      const part = await page(
        db,
        indexes,
        { score: { $gte: straddling, $lt: straddling + 30 } },
        '-createdAt',
      )
      expect(part.ids).toEqual(newest(straddling, straddling + 29).slice(0, 20))
      // Oldest first: the window is the oldest objects.
      const late = await page(db, indexes, { score: { $gt: size - 40 } }, 'createdAt')
      expect(late.ids).toEqual(readable(size - 39, size).slice(0, 20))
      // Past the window, or with an equality on the field, the planner chooses as before.
      const far = await page(db, indexes, { score: { $gte: 100 } }, '-createdAt', recentWindow)
      expect(far.ids).toEqual(newest(100, size).slice(recentWindow, recentWindow + 20))
      expect(indexes.planQuery('Item', parseWhere({ score: 5 }), '-createdAt').recentFirst).toBe(
        false,
      )
      expect(
        indexes.planQuery('Item', parseWhere({ score: { $gt: 5 } }), '-score').recentFirst,
      ).toBe(false)
      expect(
        indexes.planQuery('Item', parseWhere({ label: { $gt: 'a' } }), undefined).recentFirst,
      ).toBe(false)
    } finally {
      await indexes.close()
      await close()
    }
  })

  it('build a composite index for a filtered and sorted page, which then reads only its page', async () => {
    const { db, close, cluster } = await clusteredDatabase(kind)
    const errors: unknown[] = []
    const options = { threshold: 3, minRows: 500, perClass: 3, total: 10 }
    const indexes = new FieldIndexes(db, cluster, (e) => errors.push(e), options)
    try {
      await fill(db, 'Item', 5000)
      const where = { kind: 'k7' }
      const before = await page(db, indexes, where, '-score')
      await page(db, indexes, where, '-score')
      await page(db, indexes, where, '-score')
      expect(before.plan.walkIndexInOrder).toBe(false)
      await indexes.idle()
      expect(errors).toEqual([])
      expect(indexes.has('Item', 'kind|-score')).toBe(true)
      const name = fieldIndexName('Item', 'kind|-score')
      const [definition] = rowsOf<{ indexdef: string }>(
        await db.execute(sql`select indexdef from pg_indexes where indexname = ${name}`),
      )
      expect(definition?.indexdef).toContain(
        `((data -> 'kind'::text)), ((data -> 'score'::text)) DESC, created_at, id) WHERE (class_name = 'Item'::text)`,
      )
      // The page as the store reads it (sorting made dear): walked in order through the
      // composite, never sorted.
      const lines = await db.transaction(async (tx) => {
        await tx.execute(sql`set local enable_sort = off`)
        return rowsOf<Record<string, string>>(
          await tx.execute(sql`explain select id from objects
            where ${readableBy('Item', ['*', 'u1'])} and ${translateWhere(parseWhere(where))}
            order by ${sql.join(translateOrder('-score'), sql`, `)} limit 20`),
        ).map((row) => Object.values(row)[0])
      })
      expect(lines.join('\n')).toContain(name)
      expect(lines.join('\n')).not.toContain('Sort')
      // The same answer as before the index: k7 is g % 25 = 7, score = g, highest first; u1
      // reads its own (even g) and the public ones (g % 4 < 2).
      const after = await page(db, indexes, where, '-score')
      expect(after.plan.walkIndexInOrder).toBe(true)
      const expected = Array.from({ length: 5000 }, (_, i) => 5000 - i)
        .filter((g) => g % 25 === 7 && g % 4 !== 3)
        .map((g) => `o${g}`)
      expect(before.ids).toEqual(expected.slice(0, 20))
      expect(after).toMatchObject({ ids: before.ids, count: expected.length })
      // Known to another process from the table, and counted against the class's budget.
      const other = new FieldIndexes(db, cluster, (e) => errors.push(e), options)
      await other.load()
      expect(other.has('Item', 'kind|-score')).toBe(true)
    } finally {
      await indexes.close()
      await close()
    }
  })
})
