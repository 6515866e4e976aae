import { desc, eq } from 'drizzle-orm'
import type { Database } from '../db/client.ts'
import { files, users } from '../db/schema.ts'

/** The stored files' rows, read for the console's list and for deletes by name. */
export class FileRecords {
  readonly #db: Database

  constructor(db: Database) {
    this.#db = db
  }

  /** The owner, type and size of the file stored as `name`, if there is one. */
  async find(name: string) {
    const [file] = await this.#db
      .select({ ownerId: files.ownerId, contentType: files.contentType, size: files.size })
      .from(files)
      .where(eq(files.name, name))
    return file
  }

  /** Files with their owner's address and where they are kept, newest first. */
  list(page: { limit: number; offset: number }) {
    return this.#db
      .select({
        name: files.name,
        owner: users.address,
        ownerId: files.ownerId,
        contentType: files.contentType,
        size: files.size,
        storage: files.storage,
        createdAt: files.createdAt,
      })
      .from(files)
      .innerJoin(users, eq(users.id, files.ownerId))
      .orderBy(desc(files.createdAt), files.name)
      .limit(page.limit)
      .offset(page.offset)
  }
}
