import { rowsOf } from '../db/client.ts'
import type { objects } from '../db/schema.ts'
import { aclOfPerms, isPublicRead, type Acl } from './acl.ts'
import type { Document } from './wire.ts'

// An object as the API answers it, from a row of the table or from the one JSON value the read
// statements pack their rows into.

/** An object as the API answers it. */
export interface WireObject {
  objectId: string
  className: string
  /** The user who created it (or the server's own user for imported and synced rows). */
  owner: string
  /** Who reads and writes it. */
  acl: Acl
  /** Whether everyone reads it (the ACL's `*` read). */
  publicRead: boolean
  createdAt: string
  updatedAt: string
  data: Document
}

type Row = Omit<typeof objects.$inferSelect, 'size'>

export function toWire(row: Row): WireObject {
  const acl = aclOfPerms(row.readPerm, row.writePerm)
  return {
    objectId: row.id,
    className: row.className,
    owner: row.ownerId,
    acl,
    publicRead: isPublicRead(acl),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    data: row.data as Document,
  }
}

/**
 * An object as the read statements pack it into one JSON value (fetches and pages): id, owner,
 * read list, write list, times, document.
 */
export type PackedRow = [string, string, string[], string[], string, string, unknown]

export function packedRows<T>(result: unknown): T[] {
  const [answer] = rowsOf<{ rows: unknown }>(result)
  const rows = typeof answer?.rows === 'string' ? JSON.parse(answer.rows) : answer?.rows
  return (rows ?? []) as T[]
}

export function unpack(
  className: string,
  [id, owner, readPerm, writePerm, createdAt, updatedAt, data]: PackedRow,
): WireObject {
  const acl = aclOfPerms(readPerm, writePerm)
  return {
    objectId: id,
    className,
    owner,
    acl,
    publicRead: isPublicRead(acl),
    createdAt: new Date(createdAt).toISOString(),
    updatedAt: new Date(updatedAt).toISOString(),
    data: data as Document,
  }
}
