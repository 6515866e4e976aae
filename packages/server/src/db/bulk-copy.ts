import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { PGlite, type Transaction } from '@electric-sql/pglite'
import { NodePgSession } from 'drizzle-orm/node-postgres'
import { PgliteSession } from 'drizzle-orm/pglite'
import type pg from 'pg'
import { from as copyFrom } from 'pg-copy-streams'
import type { Database } from './client.ts'

// Many rows at once through COPY, the database's cheapest way in: no statement is planned or run
// per row, no speculative insert, nothing sent back. On the embedded database the text is handed
// over as a file instead of a statement parameter (PGlite walks a parameter's characters in
// JavaScript to measure and copy it): a row costs tens of microseconds less this way than through
// one `insert … select from jsonb_to_recordset(…)`. On PostgreSQL the rows are streamed
// (`COPY … FROM STDIN`): the database parses each row's JSON once, instead of a whole range's
// document and then each row's part of it again.

/** A value of one column, as COPY's text format reads it: text, a list of text, or null. */
export type CopyValue = string | readonly string[] | null

/**
 * Copies `rows` (values in the order of `columns`) into `table` within the drizzle transaction
 * `tx`, inside a savepoint: true when every row went in; false when nothing did because a row
 * broke a constraint (an id taken: the caller writes them its usual way), or when `tx` is no
 * transaction. Other failures are thrown.
 */
export async function copyRows(
  tx: Database,
  table: string,
  columns: readonly string[],
  rows: readonly (readonly CopyValue[])[],
  options: {
    /**
     * The one row every copied row's foreign key names (by its `id`): locked once against its
     * removal instead of looked up for each row, which costs a fifth of a row's write.
     */
    referenced?: { table: string; id: string }
  } = {},
): Promise<boolean> {
  const client = transactionClient(tx)
  if (!client) return false
  // Lists are most often one list shared by every row (their permissions): encoded once each.
  const lists = new Map<readonly string[], string>()
  const field = (value: CopyValue): string => {
    if (value === null || typeof value === 'string') return copyField(value)
    let text = lists.get(value)
    if (text === undefined) lists.set(value, (text = copyField(value)))
    return text
  }
  /** The COPY text of `rows` from `start`, at most `COPY_CHUNK_ROWS` of them. */
  const chunk = (start: number): string => {
    let text = ''
    const end = Math.min(rows.length, start + COPY_CHUNK_ROWS)
    for (let r = start; r < end; r++) {
      const row = rows[r]!
      let line = field(row[0]!)
      for (let i = 1; i < row.length; i++) line += `\t${field(row[i]!)}`
      text += `${line}\n`
    }
    return text
  }
  const copy = `copy ${table} (${columns.join(', ')}) from`
  await client.query('savepoint bulk_copy')
  try {
    const referenced = options.referenced
    let unchecked = false
    if (referenced) {
      // Locked as the check of each row would lock it: it cannot go before this commits.
      const found = await client.query(
        `select 1 from ${referenced.table} where id = $1 for key share`,
        [referenced.id],
      )
      if (found.rows.length === 0) {
        await client.query('rollback to savepoint bulk_copy')
        return false
      }
      // Foreign keys are checked by triggers that do not fire for a replica (which only a
      // superuser may claim to be, as PGlite's user always is).
      const role = await client.query<{ superuser: string }>(
        "select current_setting('is_superuser') as superuser",
      )
      unchecked = role.rows[0]?.superuser === 'on'
      if (unchecked) await client.query('set local session_replication_role = replica')
    }
    if (client.kind === 'pglite') {
      // One COPY per chunk: its text, its Blob and PGlite's copy of that Blob are held at once.
      for (let start = 0; start < rows.length; start += COPY_CHUNK_ROWS)
        await client.tx.query(`${copy} '/dev/blob'`, [], { blob: new Blob([chunk(start)]) })
    } else {
      // Streamed chunk by chunk: no more than one chunk's text is held at once.
      const chunks = function* () {
        for (let start = 0; start < rows.length; start += COPY_CHUNK_ROWS) yield chunk(start)
      }
      await pipeline(Readable.from(chunks()), client.tx.query(copyFrom(`${copy} stdin`)))
    }
    if (unchecked) await client.query('set local session_replication_role = origin')
  } catch (error) {
    await client.query('rollback to savepoint bulk_copy')
    // 23xxx: an integrity constraint (a unique id taken, a missing owner): nothing was written.
    if (String((error as { code?: unknown }).code ?? '').startsWith('23')) return false
    throw error
  }
  await client.query('release savepoint bulk_copy')
  return true
}

/**
 * Rows per piece of COPY text: a range of 5,000 contract events is some 3 MB of text, held three
 * times over on the embedded database (the string, its Blob, PGlite's copy of the Blob) if sent
 * whole; in pieces of 1,000 the same rows cost the same time.
 */
export const COPY_CHUNK_ROWS = 1_000

type Query = <R>(text: string, params?: unknown[]) => Promise<{ rows: R[] }>
type Client =
  | { kind: 'pglite'; tx: Transaction; query: Query }
  | { kind: 'postgres'; tx: pg.PoolClient; query: Query }

/** The connection of the drizzle transaction `tx`; undefined outside a transaction. */
function transactionClient(tx: Database): Client | undefined {
  const session = (tx as unknown as { session?: unknown }).session
  if (session instanceof PgliteSession) {
    const client = (session as unknown as { client: PGlite | Transaction }).client
    if (client instanceof PGlite) return undefined
    return { kind: 'pglite', tx: client, query: (text, params) => client.query(text, params) }
  }
  if (session instanceof NodePgSession) {
    const client = (session as unknown as { client: pg.Pool | pg.PoolClient }).client
    // A pool: not in a transaction (each statement could go to another connection).
    if (!('release' in client)) return undefined
    return {
      kind: 'postgres',
      tx: client,
      query: async <R>(text: string, params?: unknown[]) =>
        (await client.query(text, params)) as unknown as { rows: R[] },
    }
  }
  return undefined
}

/** A value in COPY's text format (a list as an array literal of quoted items). */
function copyField(value: CopyValue): string {
  if (value === null) return '\\N'
  const text =
    typeof value === 'string'
      ? value
      : `{${value.map((item) => `"${item.replace(/[\\"]/g, (c) => `\\${c}`)}"`).join(',')}}`
  return /[\\\t\n\r]/.test(text) ? text.replace(/[\\\t\n\r]/g, escapeCopy) : text
}

const escapeCopy = (c: string) =>
  c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\r'
