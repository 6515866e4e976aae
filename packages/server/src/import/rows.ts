import { HttpError } from '../errors.ts'
import { parseAcl, type Acl } from '../objects/acl.ts'
import { assertFieldName } from '../objects/names.ts'
import { PARSE_ENVELOPE, parseTime, type TimeField } from '../objects/parse-shape.ts'
import type { Document } from '../objects/wire.ts'
import { storedValue, ValueRefused, type FileReference } from './values.ts'

// One exported row, checked and made into what is stored, before anything is written:
// - `objectId`, `createdAt` and `updatedAt` are kept, so the compatibility mount serves the same
//   ids and times, and a second run finds the row already there;
// - `className` (the Dashboard writes it on every row) must name the file's class;
// - the ACL is kept as it is, with Parse's rule for a row without one: anyone reads and writes
//   (`{}` is the master key's alone); user ids are mapped to Portico users later;
// - Parse's own columns (`_rperm`, `_hashed_password`, …: names starting with `_`) and a user's
//   secrets (password hashes, auth data, session tokens) are not fields of the object: a
//   password hash becomes the user's login (users.ts), kept where nothing serves it.

const ID = /^[A-Za-z0-9_-]{1,64}$/

/** What Parse keeps on users that is not a field: never imported. */
const USER_SECRETS = new Set(['authData', 'password', 'bcryptPassword', 'sessionToken'])

/** Anyone reads and writes: what a Parse object without an ACL allows. */
export const NO_ACL: Acl = { '*': { read: true, write: true } }

export const FIX_AND_RERUN =
  'Correct it in the file and run the import again: rows already imported are left as they are.'

/** Why a row is not imported. */
export class RowRefused extends Error {
  constructor(
    message: string,
    readonly field?: string,
    readonly hint: string = FIX_AND_RERUN,
  ) {
    super(message)
  }
}

export interface PreparedRow {
  id: string
  createdAt: Date
  updatedAt: Date
  /** As exported (user ids not yet mapped). */
  acl: Acl
  data: Document
  files: FileReference[]
  /** The row as exported, for what only some classes read (a user's addresses). */
  raw: Record<string, unknown>
}

/** Checks one row of class `className`; throws `RowRefused` naming the field. */
export function prepareRow(value: unknown, className: string): PreparedRow {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new RowRefused('the row is not a JSON object')
  const row = value as Record<string, unknown>
  if (typeof row.objectId !== 'string' || !ID.test(row.objectId))
    throw new RowRefused('"objectId" is missing or not 1 to 64 letters, digits, _ or -', 'objectId')
  if (row.className !== undefined && row.className !== className)
    throw new RowRefused(
      `"className" is ${JSON.stringify(row.className).slice(0, 70)} but the file is ${className}'s`,
      'className',
      `Put the row in ${String(row.className).slice(0, 64)}.json, or name the file after the class of its rows.`,
    )
  const createdAt = dateOf(row, 'createdAt')
  const updatedAt = row.updatedAt === undefined ? createdAt : dateOf(row, 'updatedAt')
  let acl: Acl
  try {
    acl = row.ACL === undefined || row.ACL === null ? NO_ACL : parseAcl(row.ACL)
  } catch (error) {
    if (!(error instanceof HttpError)) throw error
    throw new RowRefused(error.message.replace(/\.$/, ''), 'ACL')
  }
  const files: FileReference[] = []
  const data: Document = {}
  for (const [key, inner] of Object.entries(row)) {
    // Parse's envelope is read into the object's own columns (`__type` starts with `_` too).
    if (PARSE_ENVELOPE.has(key) || key.startsWith('_')) continue
    if (className === '_User' && USER_SECRETS.has(key)) continue
    try {
      assertFieldName(key)
    } catch (error) {
      if (!(error instanceof HttpError)) throw error
      throw new RowRefused(
        error.message.replace(/\.$/, ''),
        key,
        'Rename the field in the file (in every row of the class) and run the import again.',
      )
    }
    try {
      data[key] = storedValue(key, inner, files)
    } catch (error) {
      if (!(error instanceof ValueRefused)) throw error
      throw new RowRefused(error.message, error.field, error.hint)
    }
  }
  return { id: row.objectId, createdAt, updatedAt, acl, data, files, raw: row }
}

function dateOf(row: Record<string, unknown>, name: TimeField): Date {
  const parsed = parseTime(row[name])
  if (!parsed) throw new RowRefused(`"${name}" is missing or not an ISO date`, name)
  return parsed
}
