/**
 * Vitest global setup of the `server` project: starts a throwaway PostgreSQL cluster on 127.0.0.1
 * for the run and stops it afterwards, and makes the migrated templates every test database is
 * copied from (database-templates.ts). Server suites then run on PGlite and on PostgreSQL.
 *
 * - `PORTICO_TEST_DATABASE_URL` set → that server is used instead (an admin URL: tests create databases).
 * - No PostgreSQL binaries → the PostgreSQL layer is skipped with a loud warning, except under CI=true.
 * PostgreSQL refuses to run as root, so as root the cluster runs as the `postgres` user.
 */
import { execFileSync, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { freePort } from '@portico/test-kit/ports'
import {
  makePgliteTemplate,
  makePostgresTemplate,
  PGLITE_TEMPLATE_ENV,
  POSTGRES_TEMPLATE_ENV,
} from './database-templates.ts'

export default async function setup(): Promise<() => void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portico-pg-'))
  let stop: () => void = () => {}
  try {
    process.env[PGLITE_TEMPLATE_ENV] = await makePgliteTemplate(dir)
    if (!process.env.PORTICO_TEST_DATABASE_URL) stop = (await startCluster(dir)) ?? stop
    const adminUrl = process.env.PORTICO_TEST_DATABASE_URL
    if (adminUrl) process.env[POSTGRES_TEMPLATE_ENV] = await makePostgresTemplate(adminUrl)
  } catch (error) {
    stop()
    fs.rmSync(dir, { recursive: true, force: true })
    throw error
  }
  return () => {
    try {
      stop()
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  }
}

/** Starts a cluster with its data in `dir`; returns how to stop it, or undefined without one. */
async function startCluster(dir: string): Promise<(() => void) | undefined> {
  const bin = findPostgresBin()
  if (!bin) {
    const message =
      'PostgreSQL server binaries not found: the PostgreSQL test layer is SKIPPED. ' +
      'Install them with `apt-get install -y postgresql` (or set PORTICO_TEST_DATABASE_URL).'
    if (process.env.CI === 'true') throw new Error(message)
    console.warn(`\n\n!!! ${message}\n\n`)
    return undefined
  }
  const asRoot = process.getuid?.() === 0
  fs.chmodSync(dir, 0o755)
  const dataDir = path.join(dir, 'data')
  const run = (tool: string, args: string[]) => {
    const file = path.join(bin, tool)
    const result = asRoot
      ? spawnSync('runuser', ['-u', 'postgres', '--', file, ...args], { encoding: 'utf8' })
      : spawnSync(file, args, { encoding: 'utf8' })
    if (result.status !== 0) throw new Error(`${tool} failed: ${result.stderr || result.stdout}`)
  }
  if (asRoot) execFileSync('chown', ['postgres:', dir])
  const port = await freePort()
  run('initdb', ['-D', dataDir, '-U', 'postgres', '-A', 'trust', '--no-sync', '-E', 'UTF8'])
  // fsync off: the tests crash the Portico server, never PostgreSQL itself.
  const options = `-h 127.0.0.1 -p ${port} -k ${dir} -c fsync=off -c full_page_writes=off -c max_connections=200`
  run('pg_ctl', ['-D', dataDir, '-o', options, '-l', path.join(dir, 'log'), '-w', 'start'])
  process.env.PORTICO_TEST_DATABASE_URL = `postgres://postgres@127.0.0.1:${port}/postgres`
  return () => run('pg_ctl', ['-D', dataDir, '-m', 'immediate', '-w', 'stop'])
}

function findPostgresBin(): string | undefined {
  const root = '/usr/lib/postgresql'
  const versions = fs.existsSync(root)
    ? fs.readdirSync(root).sort((a, b) => Number(b) - Number(a))
    : []
  for (const version of versions) {
    const bin = path.join(root, version, 'bin')
    if (fs.existsSync(path.join(bin, 'postgres'))) return bin
  }
  const onPath = spawnSync('pg_config', ['--bindir'], { encoding: 'utf8' })
  const bin = onPath.stdout?.trim()
  return bin && fs.existsSync(path.join(bin, 'postgres')) ? bin : undefined
}
