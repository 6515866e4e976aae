import { rowsOf } from '../db/client.ts'
import type { objects } from '../db/schema.ts'
import type { Document } from './wire.ts'

// An object as the API answers it, from a row of the table or from the one JSON value the read
// statements pack their rows into.

/** An object as the API answers it. */
export interface WireObject {
  objectId: string
  className: string
  owner: string
  publicRead: boolean
  createdAt: string
  updatedAt: string
  data: Document
}

type Row = Omit<typeof objects.$inferSelect, 'size'>

export function toWire(row: Row): WireObject {
  return {
    objectId: row.id,
    className: row.className,
    owner: row.ownerId,
    publicRead: row.publicRead,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    data: row.data as Document,
  }
}

/** An object as the read statements pack it into one JSON value (fetches and pages). */
export type PackedRow = [string, string, boolean, string, string, unknown]

export function packedRows<T>(result: unknown): T[] {
  const [answer] = rowsOf<{ rows: unknown }>(result)
  const rows = typeof answer?.rows === 'string' ? JSON.parse(answer.rows) : answer?.rows
  return (rows ?? []) as T[]
}

export function unpack(
  className: string,
  [id, owner, publicRead, createdAt, updatedAt, data]: PackedRow,
): WireObject {
  return {
    objectId: id,
    className,
    owner,
    publicRead,
    createdAt: new Date(createdAt).toISOString(),
    updatedAt: new Date(updatedAt).toISOString(),
    data: data as Document,
  }
}
