import type { Database } from '../db/client.ts'
import { objects } from '../db/schema.ts'
import { ANY_OWNER } from './access.ts'
import type { ClassRules } from './class-rules.ts'
import type { NewObject } from './object-store.ts'
import { insertRelations } from './relations.ts'
import { toWire } from './rows.ts'
import type { Triggers } from './triggers.ts'
import { rowOf, type UnitOfWork } from './unit-of-work.ts'

// The import's ways in: rows and relation members written as they are (ids, owners, ACLs and
// times given) where their id is free, so a second import of the same rows changes nothing.
// Nothing is told to live listeners; the save triggers run only when the import asks for them.

export class ImportPaths {
  constructor(
    private readonly db: Database,
    private readonly rules: ClassRules,
    private readonly triggers: Triggers,
    private readonly work: UnitOfWork,
  ) {}

  /**
   * Writes imported rows where their id is free in their class; returns how many were written.
   * `tx` is the import's transaction when a row is written with other tables (a user and its
   * wallets).
   */
  async rows(
    rows: NewObject[],
    tx: Database = this.db,
    options: { triggers?: boolean } = {},
  ): Promise<number> {
    if (rows.length === 0) return 0
    for (const className of new Set(rows.map((row) => row.className)))
      this.rules.assertWritable(className, undefined)
    // Triggers run outside any transaction of the import's (they read and write themselves).
    const triggers = options.triggers === true && tx === this.db
    const context = this.triggers.context()
    if (triggers)
      rows = await Promise.all(rows.map((row) => this.triggers.beforeImport(row, context)))
    const insert = tx.insert(objects).values(rows.map(rowOf)).onConflictDoNothing()
    if (!triggers) return (await insert.returning({ id: objects.id })).length
    const inserted = await insert.returning()
    for (const row of inserted) await this.triggers.afterSave(toWire(row), null, ANY_OWNER, context)
    return inserted.length
  }

  /** Relation members written as they are; returns how many were new. */
  relations(
    rows: readonly { className: string; field: string; owningId: string; relatedId: string }[],
    tx: Database = this.db,
  ): Promise<number> {
    return insertRelations(tx, rows).finally(() =>
      this.work.written(rows.map((row) => row.className)),
    )
  }
}
