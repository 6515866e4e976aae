import { sql, type SQL } from 'drizzle-orm'
import { batchConcurrency, type Database } from '../db/client.ts'
import { createCoalescer } from '../db/coalesce.ts'
import type { events } from '../db/schema.ts'

export type EventRow = typeof events.$inferInsert

export interface EventWriter {
  /** Resolves once the event is committed to the database, never before. */
  write(row: EventRow): Promise<void>
  /** Waits until everything accepted so far is written. */
  drain(): Promise<void>
}

/**
 * Group commit for events (db/coalesce.ts, docs/decisions.md): events that arrive while an
 * insert is running go together into the next multi-row INSERT, one commit for the group. Each
 * request is answered only after its group committed, so an acknowledged event is durable; speed
 * comes from fewer commits, not from answering early.
 */
export function createEventWriter(db: Database, maxBatch = 500): EventWriter {
  let pending = 0
  let idle: (() => void)[] = []
  const insert = createCoalescer(
    async (rows: EventRow[]) => {
      await db.execute(insertCounted(rows))
      return rows.map(() => undefined)
    },
    maxBatch,
    batchConcurrency(db),
  )
  return {
    async write(row) {
      pending++
      try {
        await insert(row)
      } finally {
        if (--pending === 0) {
          const waiting = idle
          idle = []
          waiting.forEach((done) => done())
        }
      }
    },
    drain: () => (pending ? new Promise<void>((resolve) => idle.push(resolve)) : Promise.resolve()),
  }
}

/** The hour an event is counted in: `date_bin` is UTC whatever the session's time zone. */
export const hourOf = (column: SQL) =>
  sql`date_bin('1 hour', ${column}, timestamptz '2000-01-01 00:00:00+00')`

/**
 * One statement that stores the events and adds them to their hours' counts (`event_counts`),
 * so the counts can never disagree with the events. The counts are upserted in key order:
 * two processes adding to the same hours lock them in the same order and never deadlock.
 */
export function insertCounted(rows: EventRow[]): SQL {
  const values = rows.map(
    (row) =>
      sql`(${row.subdomain}, ${row.event}, ${JSON.stringify(row.options ?? {})}::jsonb, ${row.visitor ?? null}, ${row.userId ?? null}, ${row.createdAt ?? null}::timestamptz)`,
  )
  return sql`
    with stored as (
      insert into events (subdomain, event, options, visitor, user_id, created_at)
      select subdomain, event, options, visitor, user_id, coalesce(created_at, now())
      from (values ${sql.join(values, sql`, `)}) as v(subdomain, event, options, visitor, user_id, created_at)
      returning subdomain, event, created_at
    )
    insert into event_counts (hour, subdomain, event, count)
    select ${hourOf(sql`created_at`)} as hour, subdomain, event, count(*)
    from stored group by 1, 2, 3 order by 1, 2, 3
    on conflict (hour, subdomain, event) do update set count = event_counts.count + excluded.count`
}
