/**
 * Migrated databases that every test database of a run is copied from, made once by the `server`
 * project's global setup instead of once per test file:
 * - PGlite: a dump of a migrated data directory, in a file. Starting PGlite from nothing (its
 *   initdb) costs some 7 CPU seconds; loading a dump, about 1.4, the same as a clone.
 * - PostgreSQL: a migrated database on the test server; each test database is
 *   `create database ... template` of it, a file copy instead of running every migration.
 * Both are keyed by the migrations, so a template is only used for the schema it was made with.
 */
import fs from 'node:fs'
import path from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import pg from 'pg'
import { migrationsFolder, openDatabase, pgliteSettings } from '../src/db/client.ts'
import { templateKey } from '../src/db/pglite-template.ts'

/** The environment variables the workers read the templates from. */
export const PGLITE_TEMPLATE_ENV = 'PORTICO_TEST_PGLITE_TEMPLATE'
export const POSTGRES_TEMPLATE_ENV = 'PORTICO_TEST_DATABASE_TEMPLATE'

/** Writes a migrated PGlite's dump into `dir`; returns the file. */
export async function makePgliteTemplate(dir: string): Promise<string> {
  const client = new PGlite(pgliteSettings)
  try {
    await openDatabase({ kind: 'pglite', client })
    const dump = await client.dumpDataDir('none')
    const file = path.join(dir, `pglite-template-${templateKey(migrationsFolder)}.tar`)
    fs.writeFileSync(file, Buffer.from(await dump.arrayBuffer()))
    return file
  } finally {
    await client.close()
  }
}

/**
 * Makes (or finds, on a server given by `PORTICO_TEST_DATABASE_URL`) the migrated template
 * database on the server at `adminUrl`; returns its name.
 */
export async function makePostgresTemplate(adminUrl: string): Promise<string> {
  const name = `portico_template_${templateKey(migrationsFolder)}`
  const admin = new pg.Client({ connectionString: adminUrl })
  await admin.connect()
  try {
    const found = await admin.query('select 1 from pg_database where datname = $1', [name])
    if (found.rowCount) return name
    // Made under another name, then renamed: a run cut short never leaves half a template.
    const partial = `${name}_${process.pid}`
    await admin.query(`drop database if exists ${partial}`)
    await admin.query(`create database ${partial}`)
    const handle = await openDatabase({
      kind: 'postgres',
      url: adminUrl.replace(/\/[^/]*$/, `/${partial}`),
      poolSize: 2,
    })
    await handle.close()
    await admin.query(`alter database ${partial} rename to ${name}`).catch(async (error) => {
      // Another run on the same server made it first: use theirs.
      await admin.query(`drop database if exists ${partial}`)
      const made = await admin.query('select 1 from pg_database where datname = $1', [name])
      if (!made.rowCount) throw error
    })
    return name
  } finally {
    await admin.end()
  }
}

let pgliteDump: Blob | undefined

/** A fresh PGlite from the run's template dump, or undefined when the run made none. */
export async function pgliteFromTemplate(): Promise<PGlite | undefined> {
  const file = process.env[PGLITE_TEMPLATE_ENV]
  if (!file || !fs.existsSync(file)) return undefined
  pgliteDump ??= new Blob([fs.readFileSync(file)])
  return pgliteFromDump(pgliteDump)
}

/**
 * A PGlite loaded from a dump of a migrated one (what `PGlite.clone()` does), with the server's
 * settings: its 16 MB buffer pool is also a tenth of the default's start-up work.
 */
export function pgliteFromDump(dump: Blob): Promise<PGlite> {
  return PGlite.create({ loadDataDir: dump, ...pgliteSettings })
}
