import { eq } from 'drizzle-orm'
import type { Database } from '../db/client.ts'
import { users } from '../db/schema.ts'
import type { User } from './sessions.ts'

/** Reads of the users' own rows (`users`), for code that holds no transaction of its own. */
export class Users {
  readonly #db: Database

  constructor(db: Database) {
    this.#db = db
  }

  /** The row of user `id`, if there is one. */
  async find(id: string): Promise<User | undefined> {
    const [row] = await this.#db.select().from(users).where(eq(users.id, id)).limit(1)
    return row
  }
}
