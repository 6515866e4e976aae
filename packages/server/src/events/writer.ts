import type { Database } from '../db/client.ts'
import { events } from '../db/schema.ts'

export type EventRow = typeof events.$inferInsert

interface Pending {
  row: EventRow
  resolve: () => void
  reject: (error: unknown) => void
}

export interface EventWriter {
  /** Resolves once the event is committed to the database, never before. */
  write(row: EventRow): Promise<void>
  /** Waits until everything accepted so far is written. */
  drain(): Promise<void>
}

/**
 * Group commit for events (design.md section 9): requests that arrive while an insert is running
 * wait together and go into the next multi-row INSERT, one transaction for the whole group. Each
 * request is answered only after its group committed, so an acknowledged event is durable; speed
 * comes from fewer commits, not from answering early. When idle, an event is written at once.
 */
export function createEventWriter(
  db: Database,
  options: { maxBatch?: number; concurrency?: number } = {},
): EventWriter {
  const maxBatch = options.maxBatch ?? 500
  const concurrency = options.concurrency ?? 1
  let queue: Pending[] = []
  let running = 0
  let idle: (() => void)[] = []

  const pump = () => {
    while (running < concurrency && queue.length) {
      const group = queue.slice(0, maxBatch)
      queue = queue.slice(group.length)
      running++
      db.insert(events)
        .values(group.map((p) => p.row))
        .then(
          () => group.forEach((p) => p.resolve()),
          (error: unknown) => group.forEach((p) => p.reject(error)),
        )
        .finally(() => {
          running--
          pump()
          if (!running && !queue.length) {
            const waiting = idle
            idle = []
            waiting.forEach((done) => done())
          }
        })
    }
  }

  return {
    write: (row) =>
      new Promise<void>((resolve, reject) => {
        queue.push({ row, resolve, reject })
        pump()
      }),
    drain: () =>
      running || queue.length
        ? new Promise<void>((resolve) => idle.push(resolve))
        : Promise.resolve(),
  }
}
