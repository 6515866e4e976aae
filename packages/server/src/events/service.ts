import type { Database } from '../db/client.ts'
import { sharedRandomValue } from '../db/shared-values.ts'
import { audienceStats, type AudienceQuery, type AudienceStats } from './audience.ts'
import { eventStats, type EventStats, type StatsQuery } from './stats.ts'
import { createEventWriter, type EventWriter } from './writer.ts'

/** The tracked events on one database: their writers, the visitor secret and the statistics. */
export class Events {
  readonly #db: Database

  constructor(db: Database) {
    this.#db = db
  }

  /** A new group-committing writer (each route plugin drains its own on close). */
  createWriter(): EventWriter {
    return createEventWriter(this.#db)
  }

  /** The secret visitors are hashed with when VISITOR_SECRET is not set (shared by processes). */
  visitorSecret(): Promise<string> {
    return sharedRandomValue(this.#db, 'visitor_secret')
  }

  stats(query: StatsQuery): Promise<EventStats> {
    return eventStats(this.#db, query)
  }

  audience(query: AudienceQuery): Promise<AudienceStats> {
    return audienceStats(this.#db, query)
  }
}
