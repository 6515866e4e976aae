import { PLACEHOLDER_USERS } from '@portico/sdk/wire'
import type { Database } from '../db/client.ts'
import { users } from '../db/schema.ts'
import { HttpError } from '../errors.ts'
import type { Acl } from '../objects/acl.ts'
import { isValidName } from '../objects/names.ts'
import type { NewObject, ObjectStore } from '../objects/object-store.ts'
import {
  ImportFileError,
  readExportFile,
  type ExportFormat,
  type ExportRow,
} from './export-file.ts'
import { importJoin, joinFile } from './joins.ts'
import { importSchemas } from './schemas.ts'
import { SCHEMA_CLASS } from '../objects/class-permissions.ts'
import { FIX_AND_RERUN, prepareRow, RowRefused, type PreparedRow } from './rows.ts'
import { importUser } from './users.ts'
import { emptyReport, refuse, type ImportProgress, type ImportReport } from './report.ts'
import { UserIds } from './user-ids.ts'

// One file of a Parse export, written as Portico objects. The command line (`portico import
// parse FOLDER`) and the console's import both come here, one file at a time, in the order
// `importOrder` gives. Each row is all or nothing: it is checked whole before anything is written,
// and written in one statement (a `_User` row with its user and addresses in one transaction), so
// a refused row leaves nothing behind and running the import again after fixing it writes it.
// Rows already there (same class and objectId) are left as they are.

/** Owns imported rows that no single user wrote (no ACL, several users, roles only). */
export const IMPORT_OWNER = {
  id: PLACEHOLDER_USERS.import.id,
  address: PLACEHOLDER_USERS.import.address,
}

const BATCH = 500

/** Parse classes that hold no app data Portico can use: their files are skipped, with why. */
const SKIPPED: Record<string, string> = {
  _Session:
    'sessions are not carried over: users sign in again with their wallets, which makes new ones',
  _Installation: 'push installations are not imported: Portico sends no push notifications',
  _Audience: 'push audiences are not imported',
  _PushStatus: 'push history is not imported',
  _JobStatus: 'job history is not imported',
  _JobSchedule: 'job schedules are not imported',
  _Hooks: 'webhooks are not imported',
  _GlobalConfig: 'Parse Config is not imported: set values in the console',
  _GraphQLConfig: 'GraphQL settings are not imported',
  _Idempotency: 'idempotency records are not imported',
  _EthAddress: 'rows of _EthAddress are made from the _User rows: import _User.json',
}

/** The order files are imported in: users, then roles, then the other classes, then relations. */
export function importOrder(names: string[]): string[] {
  const rank = (name: string) =>
    name === '_User.json' ? 0 : name === '_Role.json' ? 1 : name.startsWith('_Join:') ? 3 : 2
  return [...names].sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0))
}

/** An export file read and checked, ready to import. */
export interface OpenedFile {
  name: string
  /** The class of its rows (the owning class of a relation file). */
  className: string
  /** Set for a `_Join:<field>:<Class>` relation file. */
  join?: { field: string; className: string }
  format: ExportFormat
  rows: ExportRow[]
}

/**
 * Reads one export file. Throws `ImportFileError` for a file that is no export, or that this
 * import skips (its message says why).
 */
export function openFile(name: string, text: string): OpenedFile {
  const base = name.replace(/\.json$/, '')
  const join = joinFile(base)
  if (!join && base !== SCHEMA_CLASS) checkClassName(base)
  const { format, rows } = readExportFile(text)
  return join
    ? { name, className: join.className, join, format, rows }
    : { name, className: base, format, rows }
}

/** Imports one export file; a row it cannot take is in the report's `refused`. */
export async function importFile(
  db: Database,
  objects: ObjectStore,
  input: {
    name: string
    text: string
    onProgress?: (progress: ImportProgress) => void
    /** Runs cloud code's save triggers on each row (`--triggers`). */
    triggers?: boolean
  },
): Promise<ImportReport> {
  return importOpened(
    db,
    objects,
    openFile(input.name, input.text),
    input.onProgress,
    input.triggers,
  )
}

/** Imports a file `openFile` read. */
export function importOpened(
  db: Database,
  objects: ObjectStore,
  file: OpenedFile,
  onProgress?: (progress: ImportProgress) => void,
  triggers = false,
): Promise<ImportReport> {
  const { name, format, rows } = file
  if (file.className === SCHEMA_CLASS && !file.join)
    return importSchemas(db, objects, { file: name, format, rows, owner: IMPORT_OWNER })
  if (file.join) return importJoin(db, objects, { ...file.join, file: name, format, rows })
  return importClass(db, objects, {
    file: name,
    className: file.className,
    format,
    rows,
    triggers,
    ...(onProgress ? { onProgress } : {}),
  })
}

function checkClassName(className: string) {
  const skipped = SKIPPED[className]
  if (skipped)
    throw new ImportFileError(`${skipped[0]!.toUpperCase()}${skipped.slice(1)}.`, undefined, true)
  if (className !== '_User' && className !== '_Role' && !isValidName(className))
    throw new ImportFileError(
      `"${String(className).slice(0, 80)}" is not a class name: the file of a class is named after it (Post.json, _User.json), and relation files _Join:<field>:<Class>.json.`,
    )
}

/** Imports the rows of one class file. */
export async function importClass(
  db: Database,
  objects: ObjectStore,
  input: {
    file: string
    className: string
    format: ExportFormat
    rows: ExportRow[]
    onProgress?: (progress: ImportProgress) => void
    triggers?: boolean
  },
): Promise<ImportReport> {
  const { className } = input
  const report = emptyReport(input)
  await db.insert(users).values(IMPORT_OWNER).onConflictDoNothing()
  const people = new UserIds(db, objects)
  const relations = new Set<string>()
  // The line each objectId was first read on: a second row with it is refused, naming both.
  const firstLines = new Map<string, number>()
  for (let start = 0; start < input.rows.length; start += BATCH) {
    const batch = input.rows.slice(start, start + BATCH)
    const ready: { line: number; row: PreparedRow }[] = []
    for (const { line, value, error } of batch) {
      try {
        if (error) throw new RowRefused(error.message, error.field)
        const row = prepareRow(value, className)
        if (className === '_Role') checkRole(row)
        const first = firstLines.get(row.id)
        if (first !== undefined) throw repeated(row.id, first, line)
        firstLines.set(row.id, line)
        ready.push({ line, row })
      } catch (refusal) {
        if (!(refusal instanceof RowRefused)) throw refusal
        refuse(
          report,
          line,
          value ?? (error?.objectId ? { objectId: error.objectId } : undefined),
          refusal,
        )
      }
    }
    // A `_User` row already there is left whole (its wallets are not linked again); other rows
    // already there are skipped by the insert itself.
    const there =
      className === '_User'
        ? await objects.owners(
            className,
            ready.map(({ row }) => row.id),
          )
        : new Map<string, string>()
    const fresh = ready.filter(({ row }) => !there.has(row.id))
    report.unchanged += ready.length - fresh.length
    await people.learn(fresh.flatMap(({ row }) => Object.keys(row.acl)))
    for (const { line, row } of fresh) {
      for (const file of row.files) report.files.push({ line, objectId: row.id, ...file })
      for (const [field, value] of Object.entries(row.data))
        if ((value as { __type?: unknown } | null)?.__type === 'Relation') relations.add(field)
    }
    if (className === '_User') await writeUsers(db, objects, fresh, people, report)
    else if (input.triggers) await writeTriggered(objects, className, fresh, people, report)
    else await writeRows(db, objects, className, fresh, people, report)
    input.onProgress?.({
      className,
      done: Math.min(start + BATCH, input.rows.length),
      total: input.rows.length,
    })
  }
  for (const field of [...relations].sort())
    report.notes.push(
      `"${field}" is a Relation: its members come only from a _Join:${field}:${className}.json file (the legacy export has them, imported after the classes); a Dashboard export has none.`,
    )
  if (report.withoutPassword)
    report.notes.push(
      `${report.withoutPassword} password user${report.withoutPassword === 1 ? '' : 's'} came without a password hash (a Dashboard export has none): imported with their username, email and objects, they cannot sign in until they reset their password by mail (requestPasswordReset, through SMTP_URL); then they may link a wallet.`,
    )
  // Said at the end: a `_User` file's ACLs name users it imports itself.
  await people.recheck()
  if (people.unknown.size)
    report.notes.push(
      `ACLs name ${people.unknown.size} user id${people.unknown.size === 1 ? '' : 's'} not among the imported users (${[...people.unknown].slice(0, 3).join(', ')}${people.unknown.size > 3 ? ', …' : ''}): kept as they are, so they open nothing until such a user is imported. Import _User.json first.`,
    )
  return report
}

/** The one imported user an ACL lets write, who is recorded as the owner; else the import's. */
function ownerOf(acl: Acl, people: UserIds): string {
  const writers = Object.keys(acl).filter(
    (who) => who !== '*' && !who.startsWith('role:') && acl[who]!.write,
  )
  return writers.length === 1 && people.has(writers[0]!) ? people.map(writers[0]!) : IMPORT_OWNER.id
}

function objectOf(className: string, row: PreparedRow, people: UserIds): NewObject {
  return {
    className,
    id: row.id,
    ownerId: ownerOf(row.acl, people),
    acl: people.acl(row.acl),
    data: row.data,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  }
}

/** Rows of a class in one statement; when the database refuses it, each row on its own. */
async function writeRows(
  db: Database,
  objects: ObjectStore,
  className: string,
  rows: { line: number; row: PreparedRow }[],
  people: UserIds,
  report: ImportReport,
) {
  if (rows.length === 0) return
  const made = rows.map(({ row }) => objectOf(className, row, people))
  try {
    const imported = await objects.importRows(made, db)
    report.imported += imported
    report.unchanged += made.length - imported
    return
  } catch (error) {
    // One row the database cannot take (a role name already used, …) spoils the statement: the
    // rows are written one by one to find it, and the others still go in.
    if (!databaseRefusal(error)) throw error
  }
  for (const [i, { line, row }] of rows.entries()) {
    try {
      const imported = await objects.importRows([made[i]!], db)
      report.imported += imported
      report.unchanged += 1 - imported
    } catch (error) {
      const refusal = databaseRefusal(error)
      if (!refusal) throw error
      refuse(report, line, row.raw, refusal)
    }
  }
}

/**
 * Rows through cloud code's save triggers, one at a time: a `beforeSave` may change a row or
 * refuse it (the row is then reported, the others go on), `afterSave` is told of each written.
 */
async function writeTriggered(
  objects: ObjectStore,
  className: string,
  rows: { line: number; row: PreparedRow }[],
  people: UserIds,
  report: ImportReport,
) {
  for (const { line, row } of rows) {
    try {
      const imported = await objects.importRows([objectOf(className, row, people)], undefined, {
        triggers: true,
      })
      report.imported += imported
      report.unchanged += 1 - imported
    } catch (error) {
      const refusal =
        databaseRefusal(error) ??
        (error instanceof HttpError && error.code === 'cloud_code_error'
          ? new RowRefused(`Refused by cloud code: ${error.message}`, undefined, FIX_AND_RERUN)
          : undefined)
      if (!refusal) throw error
      refuse(report, line, row.raw, refusal)
    }
  }
}

/** `_User` rows, each in its own transaction with its user and wallet addresses. */
async function writeUsers(
  db: Database,
  objects: ObjectStore,
  rows: { line: number; row: PreparedRow }[],
  people: UserIds,
  report: ImportReport,
) {
  // Counted once its transaction committed: a row refused after its user was made is not one.
  const awaiting = new Set<string>()
  for (const { line, row } of rows) {
    try {
      const imported = await db.transaction(async (transaction) => {
        const tx = transaction as unknown as Database
        const { userId, addressObjects, withoutPassword } = await importUser(tx, row)
        if (withoutPassword) awaiting.add(row.id)
        const acl = people.acl(row.acl)
        // The user's own id in the ACL of their `_User` row is their Portico id.
        if (userId !== row.id && row.acl[row.id]) {
          acl[userId] = row.acl[row.id]!
          delete acl[row.id]
        }
        const user: NewObject = {
          className: '_User',
          id: row.id,
          ownerId: userId,
          acl,
          data: row.data,
          createdAt: row.createdAt,
          updatedAt: row.updatedAt,
        }
        const written = await objects.importRows([user], tx)
        await objects.importRows(addressObjects, tx)
        return written
      })
      report.imported += imported
      report.unchanged += 1 - imported
    } catch (error) {
      awaiting.delete(row.id)
      const refusal = error instanceof RowRefused ? error : databaseRefusal(error)
      if (!refusal) throw error
      refuse(report, line, row.raw, refusal)
    }
  }
  if (awaiting.size) report.withoutPassword = (report.withoutPassword ?? 0) + awaiting.size
}

/** The refusal of a row whose objectId an earlier row of the same file has. */
const repeated = (id: string, first: number, line: number) =>
  new RowRefused(
    `objectId "${id.slice(0, 64)}" is on line ${first} and again on line ${line} of this file: only the first of the two is taken`,
    'objectId',
    'An export holds each object once: keep the right one of the two rows (or give the other a new objectId), then run the import again.',
  )

/** Role names as Parse allows them. */
const ROLE_NAME = /^[0-9A-Za-z_\- ]{1,64}$/

function checkRole(row: PreparedRow) {
  if (typeof row.data.name !== 'string' || !ROLE_NAME.test(row.data.name))
    throw new RowRefused(
      '"name" of a role is missing or not letters, digits, spaces, _ or - (at most 64)',
      'name',
    )
}

/** A database error that concerns the row (a value it cannot store), as a refusal. */
function databaseRefusal(error: unknown): RowRefused | undefined {
  const cause = (error as { cause?: unknown }).cause ?? error
  const { code, constraint, message } = cause as {
    code?: unknown
    constraint?: unknown
    message?: unknown
  }
  if (code === '23505' && constraint === 'objects_role_name_idx')
    return new RowRefused(
      'a role of this "name" already exists with another objectId',
      'name',
      'Role names are unique: rename one of the two roles, then run the import again.',
    )
  // Data exceptions (22…) and integrity violations (23…) are about the row; others (a lost
  // connection, a full disk) stop the import.
  if (typeof code === 'string' && /^2[23]/.test(code))
    return new RowRefused(
      `the database refused the row (${String(message).slice(0, 160)})`,
      undefined,
      FIX_AND_RERUN,
    )
  return undefined
}

export { ImportFileError }
export type { ImportProgress, ImportRefusal, ImportReport } from './report.ts'
