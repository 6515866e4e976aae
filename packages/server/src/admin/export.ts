import { Readable } from 'node:stream'
import { and, asc, eq, gt, sql, type SQL } from 'drizzle-orm'
import type { Database } from '../db/client.ts'
import { objects } from '../db/schema.ts'
import { toParseObject } from '../compat/parse-object.ts'
import { toWire } from '../objects/store.ts'

// Exports of a class (or the objects a filter selects), streamed a page at a time in the order
// of their ids, so memory stays flat however large the class is. JSON is the shape Parse
// Dashboard exports (`{"results":[…]}`), which the import reads back; CSV has a column per
// top-level field.

const PAGE = 500

async function* pages(db: Database, className: string, where: SQL | undefined) {
  let after = ''
  for (;;) {
    const rows = await db
      .select()
      .from(objects)
      .where(and(eq(objects.className, className), gt(objects.id, after), where))
      .orderBy(asc(objects.id))
      .limit(PAGE)
    if (rows.length === 0) return
    yield rows.map(toWire)
    after = rows.at(-1)!.id
  }
}

export function exportJson(db: Database, className: string, where: SQL | undefined): Readable {
  return Readable.from(
    (async function* () {
      yield '{"results":['
      let first = true
      for await (const page of pages(db, className, where))
        for (const object of page) {
          // The owner is in the ACL, as Parse writes it, so the import reads this file back.
          yield `${first ? '\n' : ',\n'}${JSON.stringify(toParseObject(object))}`
          first = false
        }
      yield '\n]}\n'
    })(),
  )
}

export async function exportCsv(
  db: Database,
  className: string,
  where: SQL | undefined,
): Promise<Readable> {
  const keys = await db.execute(
    sql`select distinct jsonb_object_keys(${objects.data}) as key from ${objects}
        where ${and(eq(objects.className, className), where)} order by 1`,
  )
  const fields = (keys as unknown as { rows: { key: string }[] }).rows.map((row) => row.key)
  const header = ['objectId', 'owner', 'publicRead', 'createdAt', 'updatedAt', ...fields]
  return Readable.from(
    (async function* () {
      yield `${header.map(csvCell).join(',')}\r\n`
      for await (const page of pages(db, className, where))
        for (const object of page)
          yield `${[
            object.objectId,
            object.owner,
            String(object.publicRead),
            object.createdAt,
            object.updatedAt,
            ...fields.map((field) => {
              const value = object.data[field]
              if (value === undefined) return ''
              return typeof value === 'string' ? textCell(value) : JSON.stringify(value)
            }),
          ]
            .map(csvCell)
            .join(',')}\r\n`
    })(),
  )
}

/**
 * A text value as a cell: one that a spreadsheet would run as a formula (starting with = + - @
 * or a tab) gets a leading apostrophe, so what a user stored cannot become a formula.
 */
export function textCell(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value
}

/** One CSV cell, quoted when it holds a comma, a quote or a line break. */
export function csvCell(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value
}
