import type { Database } from '../db/client.ts'
import { createCoalescer } from '../db/coalesce.ts'
import { events } from '../db/schema.ts'

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
  const insert = createCoalescer(async (rows: EventRow[]) => {
    await db.insert(events).values(rows)
    return rows.map(() => undefined)
  }, maxBatch)
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
