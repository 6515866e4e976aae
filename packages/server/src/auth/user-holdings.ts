import { eq } from 'drizzle-orm'
import type { Database } from '../db/client.ts'
import { files, objects, passwordLogins, userAddresses, users } from '../db/schema.ts'

/** What one user has, as deleting them reads it before it changes anything. */
export interface Holdings {
  user: typeof users.$inferSelect
  login: { username: string; email: string | null } | undefined
  /** Their wallets' addresses. */
  wallets: string[]
  /** The ids of the objects they own, by class. */
  objects: Map<string, string[]>
  /** The names of the files they own. */
  files: string[]
}

/** Reads of everything a user has (`users` and the rows naming them), for deleting them. */
export class UserHoldings {
  readonly #db: Database

  constructor(db: Database) {
    this.#db = db
  }

  /** What user `userId` has; undefined when there is no such user. */
  async of(userId: string): Promise<Holdings | undefined> {
    const db = this.#db
    const [user] = await db.select().from(users).where(eq(users.id, userId)).limit(1)
    if (!user) return undefined
    const [login] = await db
      .select({ username: passwordLogins.username, email: passwordLogins.email })
      .from(passwordLogins)
      .where(eq(passwordLogins.userId, userId))
    const wallets = await db
      .select({ address: userAddresses.address })
      .from(userAddresses)
      .where(eq(userAddresses.userId, userId))
    const owned = await db
      .select({ className: objects.className, id: objects.id })
      .from(objects)
      .where(eq(objects.ownerId, userId))
    const byClass = new Map<string, string[]>()
    for (const row of owned)
      byClass.set(row.className, [...(byClass.get(row.className) ?? []), row.id])
    const ownedFiles = await db
      .select({ name: files.name })
      .from(files)
      .where(eq(files.ownerId, userId))
    return {
      user,
      login,
      wallets: wallets.map((w) => w.address),
      objects: byClass,
      files: ownedFiles.map((file) => file.name),
    }
  }
}
