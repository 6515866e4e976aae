import { sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { databaseKinds, testDatabase } from '../../test/helpers.ts'
import type { Database } from '../db/client.ts'
import { eventStats } from './stats.ts'
import { createEventWriter, type EventRow } from './writer.ts'

const at = (iso: string) => new Date(iso)

/** The figures counted straight from the stored events: what the counts must agree with. */
async function countedFromEvents(db: Database, from: Date, to: Date, event?: string) {
  const result = await db.execute(sql`
    select event, count(*)::int as n from events
    where created_at >= ${from} and created_at < ${to} ${event ? sql`and event = ${event}` : sql``}
    group by event order by event`)
  return (result as unknown as { rows: { event: string; n: number }[] }).rows
}

describe.each(databaseKinds())('event statistics on %s', (kind) => {
  it('answers from the hourly counts, partial hours at both ends from the events themselves', async () => {
    const { db, close } = await testDatabase(kind)
    try {
      const writer = createEventWriter(db, 7) // small batches: many statements add to one hour
      const rows: EventRow[] = []
      // Three days of events at uneven times, two subdomains, three names.
      for (let i = 0; i < 300; i++) {
        const time = Date.parse('2026-03-01T00:00:00Z') + ((i * 7_919_000) % (3 * 86_400_000))
        rows.push({
          subdomain: i % 4 === 0 ? 'docs.example.org' : 'app.example.org',
          event: ['page_view', 'sign_in', 'connect'][i % 3]!,
          options: { i },
          createdAt: new Date(time),
        })
      }
      await Promise.all(rows.map((row) => writer.write(row)))

      // Both ends inside an hour: 10:17 on day one to 15:43 on day three.
      const from = at('2026-03-01T10:17:00Z')
      const to = at('2026-03-03T15:43:00Z')
      const stats = await eventStats(db, { from, to, bucket: 'hour' })
      const truth = await countedFromEvents(db, from, to)
      const expected = truth.reduce((sum, row) => sum + row.n, 0)
      expect(expected).toBeGreaterThan(150) // most of the 300, but not all
      expect(expected).toBeLessThan(300)
      expect(stats.total).toBe(expected)
      expect(stats.buckets.reduce((sum, b) => sum + b.count, 0)).toBe(expected)
      expect(Object.fromEntries(stats.events.map((e) => [e.event, e.count]))).toEqual(
        Object.fromEntries(truth.map((row) => [row.event, row.n])),
      )
      expect(stats.buckets[0]!.start).toBe('2026-03-01T10:00:00.000Z')

      // Each hour's bucket is that hour's events, including the partial first and last.
      for (const bucket of [stats.buckets[0]!, stats.buckets[5]!, stats.buckets.at(-1)!]) {
        const start = new Date(Math.max(Date.parse(bucket.start), from.getTime()))
        const end = new Date(Math.min(Date.parse(bucket.start) + 3_600_000, to.getTime()))
        const hour = await countedFromEvents(db, start, end)
        expect(bucket.count).toBe(hour.reduce((sum, row) => sum + row.n, 0))
      }

      // Day buckets and filters, within one hour, and an hour-aligned range.
      const days = await eventStats(db, { from, to, bucket: 'day', event: 'sign_in' })
      const signIns = await countedFromEvents(db, from, to, 'sign_in')
      expect(days.total).toBe(signIns[0]!.n)
      expect(days.buckets.map((b) => b.start)).toEqual([
        '2026-03-01T00:00:00.000Z',
        '2026-03-02T00:00:00.000Z',
        '2026-03-03T00:00:00.000Z',
      ])
      const docs = await eventStats(db, { from, to, bucket: 'day', subdomain: 'docs.example.org' })
      expect(docs.subdomains).toEqual([{ subdomain: 'docs.example.org', count: docs.total }])
      const inOneHour = await eventStats(db, {
        from: at('2026-03-02T04:05:00Z'),
        to: at('2026-03-02T04:55:00Z'),
        bucket: 'hour',
      })
      const oneHourTruth = await countedFromEvents(
        db,
        at('2026-03-02T04:05:00Z'),
        at('2026-03-02T04:55:00Z'),
      )
      expect(inOneHour.total).toBe(oneHourTruth.reduce((sum, row) => sum + row.n, 0))
      const aligned = await eventStats(db, {
        from: at('2026-03-01T00:00:00Z'),
        to: at('2026-03-04T00:00:00Z'),
        bucket: 'day',
      })
      expect(aligned.total).toBe(300)

      // The counts hold exactly what the events hold: the same statement wrote both.
      const counts = await db.execute(
        sql`select coalesce(sum(count), 0)::int as n from event_counts`,
      )
      expect((counts as unknown as { rows: { n: number }[] }).rows[0]!.n).toBe(300)
    } finally {
      await close()
    }
  })
})
