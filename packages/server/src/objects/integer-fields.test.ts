import { sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { clusteredDatabase, databaseKinds } from '../../test/helpers.ts'
import type { Database } from '../db/client.ts'
import { objectFieldIndexes } from '../db/schema.ts'
import { parseWhere } from './condition.ts'
import { FieldIndexes, fieldIndexName } from './field-indexes.ts'
import { integerCondition } from './integer-fields.ts'
import { queryObjects } from './pages.ts'
import { translateOrder, translateWhere } from './query.ts'

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows
const amounts = new Set(['amount'])

describe('a where on integer fields', () => {
  it('compares ranges as numbers and matches each stored form of an integer', () => {
    expect(integerCondition(parseWhere({ amount: { $gt: '9', $lte: 5 } }), amounts)).toEqual({
      terms: [
        {
          kind: 'field',
          field: 'amount',
          test: { op: '$gt', bound: { type: 'numeric', value: '9' } },
        },
        {
          kind: 'field',
          field: 'amount',
          test: { op: '$lte', bound: { type: 'numeric', value: '5' } },
        },
      ],
    })
    expect(
      integerCondition(
        parseWhere({ $or: [{ amount: '007' }, { amount: { $ne: 2 ** 60 } }] }),
        amounts,
      ),
    ).toEqual({
      terms: [
        {
          kind: 'or',
          of: [
            { terms: [{ kind: 'field', field: 'amount', test: { op: '$in', values: ['7', 7] } }] },
            // Past 2^53 a number is its shortest decimal (as in a range), and never a number.
            {
              terms: [
                {
                  kind: 'field',
                  field: 'amount',
                  test: { op: '$ne', value: '1152921504606847000' },
                },
              ],
            },
          ],
        },
      ],
    })
    // Other fields, and other operators, are left as they are.
    const other = parseWhere({ name: { $gt: '9' }, amount: { $exists: true } })
    expect(integerCondition(other, amounts)).toEqual(other)
    expect(() => integerCondition(parseWhere({ amount: { $gt: 'x' } }), amounts)).toThrow(
      /compares it with a number or a decimal string/,
    )
  })
})

/** `n` objects whose `amount` is a decimal string, some past 2^64, and a few that are no number. */
async function fill(db: Database, n: number) {
  await db.execute(
    sql`insert into users (id, address) values ('u1', '0x01') on conflict do nothing`,
  )
  await db.execute(sql`
    insert into objects (class_name, id, owner_id, read_perm, write_perm, data, created_at)
    select 'Transfer', 'o' || g, 'u1', array['*'], array['u1'],
           jsonb_build_object('amount', case when g % 500 = 0 then 'none'
             else ((g * 7919) % ${n})::numeric * 1000000000000000000000::numeric || '' end),
           timestamptz '2026-01-01' + g * interval '1 second'
    from generate_series(1, ${n}) as g`)
}

describe.each(databaseKinds())('an index on an integer field on %s', (kind) => {
  it('is built on its number, used by its ranges and its order, and answers the same', async () => {
    const { db, close, cluster } = await clusteredDatabase(kind)
    const errors: unknown[] = []
    const indexes = new FieldIndexes(db, cluster, (e) => errors.push(e), {
      threshold: 2,
      minRows: 500,
      perClass: 2,
      total: 10,
    })
    try {
      await fill(db, 3000)
      const page = async () => {
        const where = integerCondition(
          parseWhere({ amount: { $gte: '2990000000000000000000000' } }),
          amounts,
        )
        const order = '-amount'
        const plan = indexes.planQuery('Transfer', where, order, amounts)
        const { results, count } = await queryObjects(db, {
          className: 'Transfer',
          viewer: ['*', 'u1'],
          where: translateWhere(where),
          orderBy: translateOrder(order, undefined, amounts),
          limit: 5,
          skip: 0,
          count: true,
          maxBytes: 1_000_000,
          ...plan,
        })
        return { amounts: results.map((r) => r.data.amount), count }
      }
      const before = await page()
      expect(before.amounts[0]).toBe('2999000000000000000000000')
      expect(before.amounts.map((a) => BigInt(a as string))).toEqual(
        [2999n, 2998n, 2997n, 2996n, 2995n].map((n) => n * 10n ** 21n),
      )
      expect(before.count).toBe(10) // 2990..2999 (the rows holding 'none' are in no range)
      await page()
      await indexes.idle()
      expect(errors).toEqual([])
      expect(indexes.has('Transfer', 'amount::numeric')).toBe(true)
      const recorded = await db.select().from(objectFieldIndexes)
      expect(recorded.map((r) => r.field)).toEqual(['amount::numeric'])
      const [definition] = rowsOf<{ indexdef: string }>(
        await db.execute(
          sql`select indexdef from pg_indexes where indexname = ${fieldIndexName('Transfer', 'amount::numeric')}`,
        ),
      )
      expect(definition?.indexdef).toContain('::numeric')
      expect(await page()).toEqual(before)

      // The planner takes it for the query as the store sends it (names and values bound).
      const where = translateWhere(integerCondition(parseWhere({ amount: { $gt: '5' } }), amounts))!
      const [order] = translateOrder('-amount', undefined, amounts)
      const plan = await db.transaction(async (tx) => {
        await tx.execute(sql`set local enable_seqscan = off`)
        await tx.execute(sql`set local enable_sort = off`)
        return rowsOf<Record<string, string>>(
          await tx.execute(sql`explain select id from objects
            where class_name = ${'Transfer'} and ${where} order by ${order} limit 5`),
        )
      })
      expect(plan.map((row) => Object.values(row)[0]).join('\n')).toContain(
        fieldIndexName('Transfer', 'amount::numeric'),
      )
    } finally {
      await indexes.close()
      await close()
    }
  })
})
