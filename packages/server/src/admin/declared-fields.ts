import type { FIELD_TYPES } from '@portico/sdk/wire'
import { eq, like } from 'drizzle-orm'
import type { Database } from '../db/client.ts'
import { sharedValues } from '../db/schema.ts'

// A class's columns as the console's data browser declares them. Documents have no schema, so a
// declared field is only a column shown before any object has a value in it; it is kept beside
// the server's other shared values.

export type FieldType = (typeof FIELD_TYPES)[number]

export interface DeclaredField {
  type: FieldType
  /** The class a pointer or relation names. */
  targetClass?: string
}

const PREFIX = 'console.fields.'
const keyOf = (className: string) => `${PREFIX}${className}`

/** The columns declared for each class, on one database. */
export class DeclaredFields {
  readonly #db: Database

  constructor(db: Database) {
    this.#db = db
  }

  async of(className: string): Promise<Record<string, DeclaredField>> {
    const [row] = await this.#db
      .select({ value: sharedValues.value })
      .from(sharedValues)
      .where(eq(sharedValues.name, keyOf(className)))
    return row ? (JSON.parse(row.value) as Record<string, DeclaredField>) : {}
  }

  /**
   * Declares a new class with its first fields (none at all still declares it); false when the
   * class was declared already, by this call's twin too: of two at once, exactly one wins.
   */
  /** Every class declared here, with or without objects yet. */
  async classNames(): Promise<string[]> {
    const rows = await this.#db
      .select({ name: sharedValues.name })
      .from(sharedValues)
      // The prefix holds neither of LIKE's wildcards (`_`, `%`), so it matches only itself.
      .where(like(sharedValues.name, `${PREFIX}%`))
    return rows.map((row) => row.name.slice(PREFIX.length)).sort()
  }

  async create(className: string, fields: Record<string, DeclaredField>): Promise<boolean> {
    const made = await this.#db
      .insert(sharedValues)
      .values({ name: keyOf(className), value: JSON.stringify(fields) })
      .onConflictDoNothing({ target: sharedValues.name })
      .returning({ name: sharedValues.name })
    return made.length === 1
  }

  async save(className: string, fields: Record<string, DeclaredField>): Promise<void> {
    const value = JSON.stringify(fields)
    await this.#db
      .insert(sharedValues)
      .values({ name: keyOf(className), value })
      .onConflictDoUpdate({ target: sharedValues.name, set: { value } })
  }
}
