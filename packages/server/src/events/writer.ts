import { sql, type SQL } from 'drizzle-orm'
import { runCompiled, type CompiledStatement, type Database } from '../db/client.ts'
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
      await runCompiled(db, insertCounted(rows))
      return rows.map(() => undefined)
    },
    maxBatch,
    // One group at a time, even on a pool: every group adds to the same hours' count rows, so a
    // second group in flight only waited for the first's row locks (on PostgreSQL, two at once
    // accepted 10 to 15% fewer events than one at a time, at 16 and at 64 in flight).
    1,
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

/** Hours are counted from this origin with `date_bin`: UTC whatever the session's time zone. */
const hourOrigin = "timestamptz '2000-01-01 00:00:00+00'"
/** The hour an event is counted in. */
export const hourOf = (column: SQL) => sql`date_bin('1 hour', ${column}, ${sql.raw(hourOrigin)})`

/**
 * One statement that stores the events and adds them to their hours' counts (`event_counts`),
 * so the counts can never disagree with the events. The counts are upserted in key order:
 * two processes adding to the same hours lock them in the same order and never deadlock.
 * Written as text with numbered parameters: compiling a group of hundreds of rows through the
 * query builder cost more CPU than the rest of their requests.
 */
export function insertCounted(rows: EventRow[]): CompiledStatement {
  const params: unknown[] = []
  const values = rows.map((row) => {
    const n = params.push(
      row.subdomain,
      row.event,
      JSON.stringify(row.options ?? {}),
      row.visitor ?? null,
      row.userId ?? null,
      row.createdAt?.toISOString() ?? null,
    )
    return `($${n - 5}, $${n - 4}, $${n - 3}::jsonb, $${n - 2}, $${n - 1}, $${n}::timestamptz)`
  })
  return {
    sql: `
    with stored as (
      insert into events (subdomain, event, options, visitor, user_id, created_at)
      select subdomain, event, options, visitor, user_id, coalesce(created_at, now())
      from (values ${values.join(', ')}) as v(subdomain, event, options, visitor, user_id, created_at)
      returning subdomain, event, created_at
    )
    insert into event_counts (hour, subdomain, event, count)
    select date_bin('1 hour', created_at, ${hourOrigin}) as hour,
      subdomain, event, count(*)
    from stored group by 1, 2, 3 order by 1, 2, 3
    on conflict (hour, subdomain, event) do update set count = event_counts.count + excluded.count`,
    params,
  }
}
