import { desc, lt } from 'drizzle-orm'
import type { Database } from '../db/client.ts'
import { adminAudit } from '../db/schema.ts'

// The audit log the console shows: one row per change made by the console or with the master
// key, written in the same transaction as the change where there is one. The object store
// writes the entries of object creates, changes and deletes itself (from the actor its caller
// names), and the files' store those of file deletes, so such a change and its entry commit
// together or not at all. Nothing in the server deletes from it.

export interface AuditEntry {
  actor: string
  action: string
  target: string
  before?: unknown
  after?: unknown
}

export async function recordAudit(db: Database, entry: AuditEntry): Promise<void> {
  await db.insert(adminAudit).values({
    actor: entry.actor,
    action: entry.action,
    target: entry.target,
    before: entry.before ?? null,
    after: entry.after ?? null,
  })
}

/** Newest first; `before` (an entry id) pages back. */
export async function listAudit(db: Database, page: { limit: number; before?: number }) {
  const rows = await db
    .select()
    .from(adminAudit)
    .where(page.before === undefined ? undefined : lt(adminAudit.id, page.before))
    .orderBy(desc(adminAudit.id))
    .limit(page.limit)
  return rows.map((row) => ({ ...row, at: row.at.toISOString() }))
}

/** The audit log as routes use it: writes and reads outside a change's own transaction. */
export class AuditLog {
  readonly #db: Database

  constructor(db: Database) {
    this.#db = db
  }

  record(entry: AuditEntry): Promise<void> {
    return recordAudit(this.#db, entry)
  }

  list(page: { limit: number; before?: number }) {
    return listAudit(this.#db, page)
  }
}
