import { desc, lt } from 'drizzle-orm'
import type { Database } from '../db/client.ts'
import { adminAudit } from '../db/schema.ts'

// The console's audit log: one row per change, written in the same transaction as the change
// where there is one. Nothing in the server deletes from it.

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
