import { Readable } from 'node:stream'
import { toParseObject } from '../objects/parse-shape.ts'
import type { ObjectScan } from '../objects/object-store.ts'

// Exports of a class (or the objects a filter selects), streamed a page at a time in the order
// of their ids, so memory stays flat however large the class is. JSON is the shape Parse
// Dashboard exports (`{"results":[…]}`), which the import reads back; CSV has a column per
// top-level field.

export function exportJson(scan: ObjectScan): Readable {
  return Readable.from(
    (async function* () {
      yield '{"results":['
      let first = true
      for await (const page of scan.pages())
        for (const object of page) {
          // The owner is in the ACL, as Parse writes it, so the import reads this file back.
          yield `${first ? '\n' : ',\n'}${JSON.stringify(toParseObject(object))}`
          first = false
        }
      yield '\n]}\n'
    })(),
  )
}

export async function exportCsv(scan: ObjectScan): Promise<Readable> {
  const fields = await scan.fieldNames()
  const header = ['objectId', 'owner', 'publicRead', 'createdAt', 'updatedAt', ...fields]
  return Readable.from(
    (async function* () {
      yield `${header.map(csvCell).join(',')}\r\n`
      for await (const page of scan.pages())
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
