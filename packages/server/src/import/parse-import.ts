import { ownerAcl } from '../objects/acl.ts'
import { getAddress, isAddress } from 'viem'
import { eq, inArray } from 'drizzle-orm'
import type { Database } from '../db/client.ts'
import { users } from '../db/schema.ts'
import { HttpError } from '../errors.ts'
import { assertStoredClassName } from '../objects/names.ts'
import type { NewObject, ObjectStore } from '../objects/store.ts'
import { normaliseDocument, type Document } from '../objects/wire.ts'
import type { ExportRow } from './export-file.ts'

// One class of a Parse or Moralis export, written as Portico objects:
// - `objectId`, `createdAt` and `updatedAt` are kept, so the compatibility mount serves the same
//   ids, and a second run finds every row already there and changes nothing;
// - the ACL becomes an owner and a public read, as the mount reads ACLs: a row whose ACL says
//   more (roles, several users, public write, a user who may read but not write) is refused,
//   never widened; a row without an ACL (Parse: anyone reads and writes) is public to read and
//   written only by IMPORT_OWNER, and `{}` (master key only) is private to IMPORT_OWNER;
// - `_User` rows with an `ethAddress` (or `accounts`) become users keyed by that address, with
//   the same ids, so a user's ACL entries and pointers still lead to them;
// - pointers are kept as they are; files are kept as references and reported, never fetched;
// - secrets Parse keeps on users (password hashes, auth data, session tokens) are dropped.

/** Owns imported rows that no user owned (no ACL, or an ACL for the master key only). */
export const IMPORT_OWNER = {
  id: 'portico-import',
  address: '0x0000000000000000000000000000000000000001',
}

const BATCH = 500
const ID = /^[A-Za-z0-9_-]{1,64}$/
/** Parse's own columns and what it keeps on users: never imported as fields. */
const DROPPED = new Set([
  'objectId',
  'createdAt',
  'updatedAt',
  'ACL',
  '_rperm',
  '_wperm',
  '_hashed_password',
  '_password_history',
  '_email_verify_token',
  '_perishable_token',
  '_tombstone',
  '_failed_login_count',
  '_account_lockout_expires_at',
  'authData',
  '_auth_data_moralisEth',
  'sessionToken',
  'password',
])

export interface ImportReport {
  className: string
  rows: number
  imported: number
  /** Already there (same objectId): left as they are. */
  unchanged: number
  refused: { line: number; objectId?: string; reason: string }[]
  /** File fields, kept as references to where they are: fetch and re-upload them if needed. */
  files: { line: number; objectId: string; field: string; url: string }[]
}

export interface ImportProgress {
  className: string
  done: number
  total: number
}

class RowRefused extends Error {}

/** Imports one class; `onProgress` is called after each batch. */
export async function importClass(
  db: Database,
  objects: ObjectStore,
  input: { className: string; rows: ExportRow[]; onProgress?: (progress: ImportProgress) => void },
): Promise<ImportReport> {
  const className = assertStoredClassName(input.className)
  if (className === '_EthAddress')
    throw new HttpError(
      400,
      'invalid_import',
      'Rows of _EthAddress are made from the _User rows: import _User instead.',
    )
  const report: ImportReport = {
    className,
    rows: input.rows.length,
    imported: 0,
    unchanged: 0,
    refused: [],
    files: [],
  }
  await db.insert(users).values(IMPORT_OWNER).onConflictDoNothing()
  for (let start = 0; start < input.rows.length; start += BATCH) {
    const batch = input.rows.slice(start, start + BATCH)
    const ready: (NewObject & { line: number })[] = []
    const owners = await resolveOwners(db, objects, batch)
    for (const row of batch) {
      try {
        if (row.error) throw new RowRefused(row.error)
        const record = checkRow(row.value)
        // A user owns their own `_User` row.
        if (className === '_User')
          owners.set(`user:${record.objectId}`, await importUser(db, objects, record))
        const access = ownerOf(record, owners)
        const data = documentOf(record, row.line, report)
        ready.push({
          line: row.line,
          className,
          id: record.objectId,
          ...ownedBy(
            className === '_User' ? owners.get(`user:${record.objectId}`)! : access.id,
            access.publicRead,
          ),
          data,
          createdAt: record.createdAt,
          updatedAt: record.updatedAt,
        })
      } catch (error) {
        if (!(error instanceof RowRefused || error instanceof HttpError)) throw error
        const objectId = (row.value as { objectId?: unknown } | undefined)?.objectId
        report.refused.push({
          line: row.line,
          ...(typeof objectId === 'string' ? { objectId: objectId.slice(0, 64) } : {}),
          reason: error.message,
        })
      }
    }
    if (ready.length) {
      const imported = await objects.importRows(ready.map(({ line: _line, ...row }) => row))
      report.imported += imported
      report.unchanged += ready.length - imported
    }
    input.onProgress?.({
      className,
      done: Math.min(start + BATCH, input.rows.length),
      total: input.rows.length,
    })
  }
  return report
}

interface Row {
  objectId: string
  createdAt: Date
  updatedAt: Date
  ACL?: unknown
  [field: string]: unknown
}

function checkRow(value: unknown): Row {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new RowRefused('a row must be a JSON object')
  const row = value as Record<string, unknown>
  if (typeof row.objectId !== 'string' || !ID.test(row.objectId))
    throw new RowRefused('"objectId" is missing or not 1 to 64 letters, digits, _ or -')
  const date = (name: 'createdAt' | 'updatedAt') => {
    const raw = row[name]
    const text =
      typeof raw === 'string' ? raw : ((raw as { iso?: unknown } | undefined)?.iso ?? undefined)
    const parsed = typeof text === 'string' ? new Date(text) : undefined
    if (!parsed || Number.isNaN(parsed.getTime()))
      throw new RowRefused(`"${name}" is missing or not a date`)
    return parsed
  }
  return {
    ...row,
    objectId: row.objectId,
    createdAt: date('createdAt'),
    updatedAt: date('updatedAt'),
  }
}

/** The Portico user ids that the Parse user ids in this batch's ACLs stand for. */
async function resolveOwners(db: Database, objects: ObjectStore, batch: ExportRow[]) {
  const named = new Set<string>()
  for (const row of batch) {
    const value = row.value as { ACL?: unknown; objectId?: unknown } | undefined
    if (value?.ACL && typeof value.ACL === 'object')
      for (const who of Object.keys(value.ACL)) if (ID.test(who)) named.add(who)
  }
  const owners = new Map<string, string>()
  if (named.size === 0) return owners
  const ids = [...named]
  // A Parse user imported before (or made by the mount) is the `_User` object of that id.
  for (const [id, ownerId] of await objects.owners('_User', ids)) owners.set(`user:${id}`, ownerId)
  const viaUsers = await db.select({ id: users.id }).from(users).where(inArray(users.id, ids))
  for (const row of viaUsers)
    if (!owners.has(`user:${row.id}`)) owners.set(`user:${row.id}`, row.id)
  return owners
}

const ownedBy = (ownerId: string, publicRead: boolean) => ({
  ownerId,
  acl: ownerAcl(ownerId, publicRead),
})

/** The owner and public read an ACL means; refuses what Portico cannot express. */
function ownerOf(row: Row, owners: Map<string, string>): { id: string; publicRead: boolean } {
  if (row.ACL === undefined || row.ACL === null) return { id: IMPORT_OWNER.id, publicRead: true }
  if (typeof row.ACL !== 'object' || Array.isArray(row.ACL))
    throw new RowRefused('"ACL" must be an object')
  let publicRead = false
  let owner: string | undefined
  for (const [who, rights] of Object.entries(row.ACL as Record<string, unknown>)) {
    const { read, write } = (rights ?? {}) as { read?: unknown; write?: unknown }
    if (who === '*') {
      if (write === true)
        throw new RowRefused(
          'its ACL lets everyone write, which Portico cannot grant; not imported',
        )
      publicRead = read === true
    } else if (who.startsWith('role:')) {
      throw new RowRefused(
        `its ACL grants the role "${who.slice(5, 60)}", and Portico has no roles; not imported rather than opened wider`,
      )
    } else {
      if (owner !== undefined)
        throw new RowRefused('its ACL names several users; Portico objects have one owner')
      if (read !== true || write !== true)
        throw new RowRefused(
          `its ACL lets user "${who.slice(0, 64)}" ${write === true ? 'write but not read' : 'read but not write'}; Portico's owner does both`,
        )
      const id = owners.get(`user:${who}`)
      if (!id)
        throw new RowRefused(
          `its ACL names user "${who.slice(0, 64)}", who is not imported: import _User first`,
        )
      owner = id
    }
  }
  return { id: owner ?? IMPORT_OWNER.id, publicRead }
}

/** A `_User` row: the user keyed by its address, with the row's id when the address is new. */
async function importUser(db: Database, objects: ObjectStore, row: Row): Promise<string> {
  const accounts = Array.isArray(row.accounts) ? row.accounts : []
  const raw = typeof row.ethAddress === 'string' ? row.ethAddress : accounts[0]
  if (typeof raw !== 'string' || !isAddress(raw, { strict: false }))
    throw new RowRefused('a _User needs an "ethAddress" (or "accounts") to sign in to Portico')
  const address = getAddress(raw)
  await db
    .insert(users)
    .values({
      id: row.objectId,
      address,
      firstSignInAt: row.createdAt,
      lastSignInAt: row.updatedAt,
    })
    .onConflictDoNothing()
  const [user] = await db.select({ id: users.id }).from(users).where(eq(users.address, address))
  await objects.importRows([
    {
      className: '_EthAddress',
      id: address.toLowerCase(),
      ...ownedBy(user!.id, false),
      data: { user: { __type: 'Pointer', className: '_User', objectId: row.objectId } },
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
    },
  ])
  return user!.id
}

function documentOf(row: Row, line: number, report: ImportReport): Document {
  const fields: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(row)) {
    if (DROPPED.has(key)) continue
    fields[key] = value
    const file = value as { __type?: unknown; url?: unknown; name?: unknown }
    if (file && typeof file === 'object' && file.__type === 'File')
      report.files.push({
        line,
        objectId: row.objectId,
        field: key,
        url: String(file.url ?? file.name ?? ''),
      })
  }
  return normaliseDocument(fields)
}
