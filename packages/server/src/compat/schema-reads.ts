import { sql } from 'drizzle-orm'
import { queryRows, type Database } from '../db/client.ts'
import { objects } from '../db/schema.ts'
import { relationTargetClass } from '../objects/relation-reads.ts'
import { geoPointFieldsHeld } from './geo-fields.ts'

/** Objects a class's fields are guessed from (their first value of each type wins). */
const SAMPLE = 1_000

/**
 * What the mount reads of classes' shapes straight from the objects' table: the fields their
 * objects hold, and their relation targets, beyond what their schemas declare.
 */
export class SchemaReads {
  readonly #db: Database

  constructor(db: Database) {
    this.#db = db
  }

  /** Each field the first objects of `className` hold, with its first value. */
  heldFields(className: string) {
    return queryRows<{ key: string; value: unknown }>(
      this.#db,
      sql`select distinct on (e.key) e.key, e.value from (
          select ${objects.data} as data from ${objects} where ${objects.className} = ${className}
          limit ${SAMPLE}) o, jsonb_each(o.data) as e(key, value)
        order by e.key`,
    )
  }

  /** The GeoPoint fields objects of `className` hold (see geo-fields.ts). */
  geoPointFieldsHeld(className: string): Promise<string[]> {
    return geoPointFieldsHeld(this.#db, className)
  }

  /** The class of the members of relation `key` of `className` (see relation-reads.ts). */
  relationTargetClass(className: string, key: string): Promise<string | undefined> {
    return relationTargetClass(this.#db, className, key)
  }
}
