import { randomBytes } from 'node:crypto'
import type { FastifyBaseLogger, FastifyInstance } from 'fastify'
import { PGlite } from '@electric-sql/pglite'
import pg from 'pg'
import { afterAll, expect } from 'vitest'
import { getAddress } from 'viem'
import { buildServer } from '../src/app.ts'
import { issueNonce } from '../src/auth/nonces.ts'
import { SignIns, type CompleteSignInResult } from '../src/auth/sign-in.ts'
import { loadConfig, type ServerConfig } from '../src/config/server.ts'
import {
  openDatabase,
  pgliteSettings,
  type Database,
  type DatabaseHandle,
  type DatabaseKind,
} from '../src/db/client.ts'
import { openCluster, type Cluster, type ClusterSettings } from '../src/db/cluster/cluster.ts'
import { pgliteFromDump, pgliteFromTemplate, POSTGRES_TEMPLATE_ENV } from './database-templates.ts'
import { kindsFor } from './one-database.ts'

/**
 * The database kinds the calling test file runs on: PGlite always and PostgreSQL when the harness
 * started one, or only one of them for a file listed in one-database.ts (docs/testing.md).
 */
export function databaseKinds(): DatabaseKind[] {
  const available: DatabaseKind[] = process.env.PORTICO_TEST_DATABASE_URL
    ? ['pglite', 'postgres']
    : ['pglite']
  return kindsFor(expect.getState().testPath, available)
}

/**
 * A fresh, migrated database of the given kind: PGlite in memory, or a new database on the test
 * PostgreSQL server (dropped when the file's tests end). Both are copies of the run's migrated
 * templates (database-templates.ts) when the global setup made them.
 */
export async function testDatabase(kind: DatabaseKind): Promise<DatabaseHandle & { url?: string }> {
  if (kind === 'pglite')
    return openDatabase({
      kind: 'pglite',
      client: (await pgliteFromTemplate()) ?? (await pgliteFromDump(await pgliteTemplate())),
    })
  const adminUrl = process.env.PORTICO_TEST_DATABASE_URL
  if (!adminUrl)
    throw new Error('No test PostgreSQL: run the tests through the `server` Vitest project')
  const name = `portico_test_${randomBytes(6).toString('hex')}`
  const template = process.env[POSTGRES_TEMPLATE_ENV]
  await adminQuery(adminUrl, `create database ${name}${template ? ` template ${template}` : ''}`)
  const url = adminUrl.replace(/\/[^/]*$/, `/${name}`)
  const handle = await openDatabase({ kind: 'postgres', url, poolSize: 5 })
  return {
    ...handle,
    url,
    close: async () => {
      await handle.close()
      await adminQuery(adminUrl, `drop database if exists ${name} with (force)`)
    },
  }
}

// Without the run's template (a file run outside the `server` project's setup): starting PGlite
// and migrating takes seconds; loading a dump of a migrated one takes a fraction of that. The
// dump is made once per file.
let template: Promise<Blob> | undefined
function pgliteTemplate(): Promise<Blob> {
  template ??= (async () => {
    const client = new PGlite(pgliteSettings)
    await openDatabase({ kind: 'pglite', client })
    const dump = await client.dumpDataDir('none')
    await client.close()
    return dump
  })()
  return template
}

/** A logger that keeps what it is told (by level) instead of printing it. */
export function recordingLog(): FastifyBaseLogger & {
  lines: { level: string; args: unknown[] }[]
} {
  const lines: { level: string; args: unknown[] }[] = []
  const levels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']
  const log = {
    level: 'trace',
    lines,
    child: () => log,
    ...Object.fromEntries(
      levels.map((level) => [level, (...args: unknown[]) => void lines.push({ level, args })]),
    ),
  }
  return log as unknown as FastifyBaseLogger & { lines: typeof lines }
}

/** A fresh database of `kind` with its cluster, as one server process has them. */
export async function clusteredDatabase(
  kind: DatabaseKind,
  settings: Partial<ClusterSettings> = {},
): Promise<DatabaseHandle & { url?: string; cluster: Cluster }> {
  const database = await testDatabase(kind)
  const cluster = await openCluster(
    database,
    { shared: {}, liveMaxSocketsPerAddress: 20, ...settings },
    recordingLog(),
  )
  return {
    ...database,
    cluster,
    close: async () => {
      await cluster.close()
      await database.close()
    },
  }
}

/** Configuration for tests: defaults, then the overrides. Never reads the real environment. */
export function testConfig(overrides: Partial<ServerConfig> = {}): ServerConfig {
  return { ...loadConfig({}), logLevel: 'silent', ...overrides }
}

export interface TestApp {
  app: FastifyInstance
  database: DatabaseHandle
  close(): Promise<void>
}

/**
 * An in-process server on a fresh database of `kind`, closed automatically after the file's tests.
 * @example
 * describe.each(databaseKinds())('health on %s', (kind) => {
 *   it('answers', async () => {
 *     const { app } = await testApp(kind)
 *     expect((await app.inject('/api/health')).statusCode).toBe(200)
 *   })
 * })
 */
export async function testApp(
  kind: DatabaseKind,
  overrides: Partial<ServerConfig> = {},
  /** Adds routes before the app is sealed, e.g. a probe route for a test. */
  extend?: (app: FastifyInstance) => void,
): Promise<TestApp> {
  const database = await testDatabase(kind)
  const app = await buildServer({ config: testConfig(overrides), database, logger: false })
  extend?.(app)
  await app.ready()
  let closed = false
  const close = async () => {
    if (closed) return
    closed = true
    await app.close()
    await database.close()
  }
  afterAll(close)
  return { app, database, close }
}

async function adminQuery(url: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    await client.query(sql)
  } finally {
    await client.end()
  }
}

/**
 * Starts a session without a wallet, through the real sign-in statement (a nonce issued and
 * consumed, the user upserted, the session created): what a verified signature leads to.
 */
export async function startSession(
  db: Database,
  {
    address,
    chainId = 31337,
    ttlMs = 3_600_000,
  }: { address: string; chainId?: number; ttlMs?: number },
): Promise<CompleteSignInResult> {
  const { nonce } = await issueNonce(db, 60_000)
  return new SignIns(db).complete({
    nonce,
    address: getAddress(address),
    chainId,
    issuedAt: new Date(),
    skewMs: 60_000,
    ttlMs,
  })
}

/**
 * Signs a user in without a wallet, for suites that test what a signed-in user can do, not how
 * they sign in. Returns bearer headers for `app.inject`.
 */
export async function signedIn(
  app: FastifyInstance,
  address = `0x${randomBytes(20).toString('hex')}`,
): Promise<{
  user: CompleteSignInResult['user']
  token: string
  headers: { authorization: string }
}> {
  const { user, token } = await startSession(app.services.database.db, { address })
  return { user, token, headers: { authorization: `Bearer ${token}` } }
}

/**
 * Waits for the next minute when fewer than `marginMs` of this one are left. Rate limits count
 * in windows of a wall-clock minute: a test whose requests straddled a minute's end would count
 * them in two windows and see a request through that the limit refuses (a loaded machine makes
 * these tests take seconds).
 */
export async function wellInsideAMinute(marginMs = 15_000): Promise<void> {
  const left = 60_000 - (Date.now() % 60_000)
  if (left < marginMs) await new Promise((resolve) => setTimeout(resolve, left + 50))
}

/**
 * `testApp` with a console team: an admin and a viewer, signed in (their headers for
 * `app.inject`), for suites of the console's routes.
 */
export async function consoleTestApp(
  kind: DatabaseKind,
  team = { admin: `0x${'c1'.repeat(20)}`, viewer: `0x${'c2'.repeat(20)}` },
): Promise<TestApp & Record<'admin' | 'viewer', Awaited<ReturnType<typeof signedIn>>>> {
  const base = testConfig()
  const adminAddresses = [getAddress(team.admin)]
  const viewerAddresses = [getAddress(team.viewer)]
  const made = await testApp(kind, { app: { ...base.app, adminAddresses, viewerAddresses } })
  const [admin, viewer] = await Promise.all([
    signedIn(made.app, team.admin),
    signedIn(made.app, team.viewer),
  ])
  return { ...made, admin, viewer }
}
