import type { Database } from '../db/client.ts'
import { isPointerClass, isValidName } from '../objects/names.ts'
import type { ObjectStore } from '../objects/object-store.ts'
import type { ExportFormat, ExportRow } from './export-file.ts'
import { emptyReport, type ImportReport } from './report.ts'
import { UserIds } from './user-ids.ts'
import { FIX_AND_RERUN } from './rows.ts'

// The members of a Relation, from the legacy export's `_Join:<field>:<Class>.json` files: rows of
// `{"owningId", "relatedId"}`, object `owningId` of `Class` holding `relatedId` in `field`. A
// role's members are `_Join:users:_Role` (users) and `_Join:roles:_Role` (roles whose members
// it takes in). Users are named by their Parse ids; a role's members are stored as the Portico
// users those ids were imported as, which is who signs in.

const ID = /^[A-Za-z0-9_-]{1,64}$/
const BATCH = 1000

/** The relation a file name `_Join:<field>:<Class>` stands for, or undefined. */
export function joinFile(base: string): { field: string; className: string } | undefined {
  const match = /^_Join:([^:]+):([^:]+)$/.exec(base)
  if (!match) return undefined
  const [, field, className] = match
  if (!isValidName(field) || !isPointerClass(className)) return undefined
  return { field: field!, className: className! }
}

export async function importJoin(
  db: Database,
  objects: ObjectStore,
  input: {
    file: string
    field: string
    className: string
    format: ExportFormat
    rows: ExportRow[]
  },
): Promise<ImportReport> {
  const { field, className } = input
  const report = emptyReport(input)
  const people = new UserIds(db, objects)
  const usersField = className === '_Role' && field === 'users'
  for (let start = 0; start < input.rows.length; start += BATCH) {
    const members: { className: string; field: string; owningId: string; relatedId: string }[] = []
    const batch = input.rows.slice(start, start + BATCH)
    for (const { line, value, error } of batch) {
      const row = value as { owningId?: unknown; relatedId?: unknown } | undefined
      const problem = error
        ? { message: error.message, field: error.field }
        : row === null || typeof row !== 'object'
          ? { message: 'the row is not a JSON object' }
          : typeof row.owningId !== 'string' || !ID.test(row.owningId)
            ? { message: '"owningId" is missing or not an objectId', field: 'owningId' }
            : typeof row.relatedId !== 'string' || !ID.test(row.relatedId)
              ? { message: '"relatedId" is missing or not an objectId', field: 'relatedId' }
              : undefined
      if (problem) {
        report.refused.push({
          line,
          ...(problem.field ? { field: problem.field } : {}),
          reason: `${problem.message}. ${FIX_AND_RERUN}`,
        })
        continue
      }
      members.push({
        className,
        field,
        owningId: row!.owningId as string,
        relatedId: row!.relatedId as string,
      })
    }
    if (usersField) {
      await people.learn(members.map((m) => m.relatedId))
      for (const member of members) member.relatedId = people.map(member.relatedId)
    }
    const imported = await objects.importRelations(members, db)
    report.imported += imported
    report.unchanged += members.length - imported
  }
  if (people.unknown.size)
    report.notes.push(
      `${people.unknown.size} member${people.unknown.size === 1 ? ' is' : 's are'} not among the imported users: kept by their ids. Import _User.json first.`,
    )
  return report
}
