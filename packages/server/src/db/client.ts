import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { PGlite, type QueryOptions, type Transaction } from '@electric-sql/pglite'
import { saveTemplate, templateKey, unpackTemplate } from './pglite-template.ts'
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite'
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator'
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres'
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator'
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core'
import { sql, type SQL } from 'drizzle-orm'
import pg from 'pg'
import { advisoryLocks } from './advisory-locks.ts'
import * as schema from './schema.ts'

export type Schema = typeof schema
export type Database = PgDatabase<PgQueryResultHKT, Schema>
export type DatabaseKind = 'pglite' | 'postgres'

export interface DatabaseHandle {
  db: Database
  kind: DatabaseKind
  close(): Promise<void>
  /** PostgreSQL's connection URL; absent for the embedded database. */
  url?: string | undefined
  /** Connections of the PostgreSQL pool (for metrics); absent for the embedded database. */
  pool?: { total: number; idle: number; waiting: number } | undefined
  /**
   * PostgreSQL only: connections whose commits do not wait for the disk, for shared state whose
   * last moments may be lost in a crash without harm (rate-limit counters). Never for anything a
   * client is told was stored.
   */
  relaxed?: Database | undefined
}

export type OpenDatabaseOptions =
  | { kind: 'postgres'; url: string; poolSize?: number }
  /** `dir` absent → in memory; `client` → an already opened PGlite (tests clone a migrated template). */
  | { kind: 'pglite'; dir?: string; client?: PGlite }

/** The committed SQL migrations, next to `src` in development and next to `dist` when built. */
export const migrationsFolder = findMigrations(path.dirname(fileURLToPath(import.meta.url)))

function findMigrations(here: string): string {
  const candidates = [
    path.resolve(here, '..', '..', 'drizzle'),
    path.resolve(here, '..', 'drizzle'),
  ]
  return (
    candidates.find((dir) => fs.existsSync(path.join(dir, 'meta', '_journal.json'))) ??
    candidates[0]!
  )
}

/** Opens the database and brings its schema up to date. */
export async function openDatabase(options: OpenDatabaseOptions): Promise<DatabaseHandle> {
  if (options.kind === 'postgres') {
    const pool = new pg.Pool({ connectionString: options.url, max: options.poolSize ?? 10 })
    // An idle client that loses its connection must not crash the process.
    pool.on('error', () => {})
    const db = drizzlePg(pool, { schema }) as unknown as Database
    pooled.add(db)
    await migrateWithLock(pool, db)
    // A commit that waits for the WAL flush costs a millisecond or more; a rate-limit counter
    // lost in a crash only lets a client a few more requests in that window.
    const relaxedPool = new pg.Pool({
      connectionString: options.url,
      max: 4,
      options: '-c synchronous_commit=off',
    })
    relaxedPool.on('error', () => {})
    const relaxed = drizzlePg(relaxedPool, { schema }) as unknown as Database
    pooled.add(relaxed)
    return {
      db,
      kind: 'postgres',
      url: options.url,
      relaxed,
      close: async () => {
        await Promise.all([pool.end(), relaxedPool.end()])
      },
      get pool() {
        return { total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }
      },
    }
  }
  // A new data directory starts from a template of the migrated database (pglite-template.ts).
  const dataDir = options.dir && !options.client ? path.join(options.dir, 'pglite') : undefined
  const key = dataDir ? templateKey(migrationsFolder) : undefined
  const fresh = dataDir !== undefined && !fs.existsSync(path.join(dataDir, 'PG_VERSION'))
  const created = fresh && !(await unpackTemplate(dataDir, key!))
  const client =
    options.client ?? (dataDir ? new PGlite(dataDir, pgliteSettings) : new PGlite(pgliteSettings))
  await client.waitReady
  keepTimesAsText(client)
  const db = drizzlePglite(client, { schema })
  await migratePglite(db, { migrationsFolder })
  if (created) {
    // Written out whole, then kept for the next new data directory (nothing else writes yet).
    await client.query('checkpoint')
    try {
      saveTemplate(dataDir!, key!)
    } catch {
      // A read-only installation keeps no template: the next new data directory is created.
    }
  }
  return { db: db as unknown as Database, kind: 'pglite', close: () => client.close() }
}

/**
 * The embedded database's buffer pool lives in the process's memory and is never given back:
 * at PostgreSQL's default (128 MB) a backfill of 100,000 contract events took the process past
 * 500 MB, and each 16 MB of it is 16 MB more at the peak. 16 MB holds the upper pages of the
 * indexes a page query walks; beyond them the operating system's file cache serves the reads.
 */
const pgliteStartParams = [...PGlite.defaultStartParams, '-c', 'shared_buffers=16MB']

const pooled = new WeakSet<Database>()

/**
 * How many group-commit batches may run at once on `db` (see db/coalesce.ts): two on a
 * PostgreSQL pool, one on the embedded database's single connection.
 */
export const batchConcurrency = (db: Database): number => (pooled.has(db) ? 2 : 1)

/** Whether `db` is the embedded database (PGlite, in this process) rather than a PostgreSQL pool. */
export const isEmbedded = (db: Database): boolean => !pooled.has(db)

/**
 * PGlite's own bytea conversion goes through one JavaScript string per byte, which for a 20 MB
 * file costs seconds and over a gigabyte of memory; Buffer's native hex codec does the same work
 * in a fraction of both. (`pg` sends Buffers as they are.)
 */
const BYTEA = 17
const byteaAsHex = {
  serializers: {
    [BYTEA]: (value: Uint8Array) =>
      `\\x${Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('hex')}`,
  },
  parsers: { [BYTEA]: (value: string) => Buffer.from(value.slice(2), 'hex') },
}

/** How the server opens the embedded database; an already opened one (`client`) should match. */
export const pgliteSettings = { ...byteaAsHex, startParams: pgliteStartParams }

/** Dates, times and intervals stay text, as drizzle's column types expect them. */
const timesAsText = new Set([1082, 1114, 1184, 1186, 1182, 1115, 1185, 1187, 1231])

/**
 * drizzle sends parsers with every query that keep dates, times and intervals as text (its
 * column types map them); PGlite then copies its whole table of some 300 parsers for that one
 * query, about 80 µs, a tenth of a page query's time. The client's table gets those entries once,
 * and a query whose parsers only repeat them (each an identity) goes without them.
 */
function keepTimesAsText(client: PGlite): void {
  type Parser = (value: string) => unknown
  const table = (client as unknown as { parsers: Record<number, Parser> }).parsers
  for (const oid of timesAsText) table[oid] = (value) => value
  const query = client.query.bind(client)
  const repeats = (parsers: NonNullable<QueryOptions['parsers']>) => {
    for (const key in parsers) {
      const oid = Number(key)
      if (!timesAsText.has(oid) || parsers[oid]!('0') !== '0') return false
    }
    return true
  }
  const lean = (options?: QueryOptions) =>
    options?.parsers && repeats(options.parsers) ? { ...options, parsers: undefined } : options
  client.query = ((text: string, params?: unknown[], options?: QueryOptions) =>
    query(text, params, lean(options))) as typeof client.query
  // Statements in a transaction go through the transaction's own `query`.
  const transaction = client.transaction.bind(client)
  client.transaction = ((run: (tx: Transaction) => Promise<unknown>) =>
    transaction((tx) => {
      const inTx = tx.query.bind(tx)
      tx.query = ((text: string, params?: unknown[], options?: QueryOptions) =>
        inTx(text, params, lean(options))) as typeof tx.query
      return run(tx)
    })) as typeof client.transaction
}

// Several server processes may start at once against one PostgreSQL: only one migrates at a time.
async function migrateWithLock(pool: pg.Pool, db: Database): Promise<void> {
  const client = await pool.connect()
  try {
    await client.query('select pg_advisory_lock($1)', [advisoryLocks.migrations])
    await migratePg(db as never, { migrationsFolder })
  } finally {
    // An unlock fails only on a broken connection, whose locks PostgreSQL drops with it.
    await client.query('select pg_advisory_unlock($1)', [advisoryLocks.migrations]).catch(() => {})
    client.release()
  }
}

/** Cheap liveness probe used by the health route. */
export async function pingDatabase(db: Database): Promise<boolean> {
  try {
    await db.execute(sql`select 1`)
    return true
  } catch {
    return false
  }
}

/**
 * Migrations this build ships that the database has not applied (0 when up to date), read from
 * the migrator's own table; undefined when the database cannot be asked.
 */
export async function pendingMigrations(db: Database): Promise<number | undefined> {
  try {
    const journal = JSON.parse(
      fs.readFileSync(path.join(migrationsFolder, 'meta', '_journal.json'), 'utf8'),
    ) as { entries: unknown[] }
    const result = await db.execute(
      sql`select count(*)::int as applied from drizzle.__drizzle_migrations`,
    )
    const [row] = rowsOf<{ applied: number }>(result)
    return Math.max(0, journal.entries.length - Number(row?.applied ?? 0))
  } catch {
    return undefined
  }
}

/** What the health routes ask of the database, without holding it. */
export interface DatabaseHealth {
  ping(): Promise<boolean>
  pendingMigrations(): Promise<number | undefined>
}

export function databaseHealth(db: Database): DatabaseHealth {
  return { ping: () => pingDatabase(db), pendingMigrations: () => pendingMigrations(db) }
}

/** A statement compiled to its text and parameters, to run again without building it anew. */
export interface CompiledStatement {
  sql: string
  params: unknown[]
  /**
   * A name for a statement whose text never changes: PostgreSQL then parses and plans it once
   * per connection (a prepared statement) rather than at each run.
   */
  name?: string
}

/** Compiles a statement as `db.execute` would before sending it. */
export function compileStatement(db: Database, statement: SQL): CompiledStatement {
  const { dialect } = db as unknown as { dialect: { sqlToQuery(s: SQL): CompiledStatement } }
  return dialect.sqlToQuery(statement)
}

const pgTypes = {
  getTypeParser: (oid: number, format?: 'text' | 'binary') =>
    timesAsText.has(oid) ? (value: string) => value : pg.types.getTypeParser(oid, format),
}

/**
 * Runs a compiled statement on the database's own client (the pool, or the embedded database),
 * read as `db.execute` reads it: times stay text, everything else as the driver parses it.
 */
export function runCompiled(
  db: Database,
  statement: CompiledStatement,
): Promise<{ rows: unknown[] }> {
  const client = (db as unknown as { $client: unknown }).$client
  if (client instanceof pg.Pool) {
    return client.query({
      text: statement.sql,
      values: statement.params,
      types: pgTypes,
      ...(statement.name === undefined ? {} : { name: statement.name }),
    })
  }
  return (client as PGlite).query(statement.sql, statement.params)
}

/**
 * The rows of a `db.execute` result. The two drivers answer in different shapes that both
 * carry `rows` (node-postgres' `QueryResult`, PGlite's `Results`), which drizzle's shared type
 * does not say; this is the one place that knows.
 */
export async function queryRows<T>(db: Pick<Database, 'execute'>, statement: SQL): Promise<T[]> {
  return rowsOf<T>(await db.execute(statement))
}

/** The rows of a result `db.execute` already answered (see `queryRows`). */
export function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows
}

/**
 * A list of strings as one bound `text[]` parameter: the SQL template would spread a JavaScript
 * array into one parameter per element.
 */
export function textArray(values: readonly string[]): SQL {
  const literal = `{${values.map((v) => `"${v.replace(/["\\]/g, '\\$&')}"`).join(',')}}`
  return sql`${literal}::text[]`
}
