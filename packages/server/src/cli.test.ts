import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'

// The real CLI as a user starts it (from source through tsx, so no build is needed).
const cli = path.resolve(path.dirname(fileURLToPath(import.meta.url)), 'cli.ts')
const running: ChildProcess[] = []
afterEach(() => running.splice(0).forEach((child) => child.kill('SIGKILL')))

function start(dataDir: string) {
  const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', cli], {
    env: { ...process.env, PORT: '0', DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'silent' },
  })
  running.push(child)
  let output = ''
  child.stdout.on('data', (chunk) => (output += chunk))
  child.stderr.on('data', (chunk) => (output += chunk))
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve))
  const url = new Promise<string>((resolve, reject) => {
    child.stdout.on('data', () => {
      const match = /running at (http:\/\/\S+)/.exec(output)
      if (match) resolve(match[1]!)
    })
    void exited.then(() => reject(new Error(`exited early:\n${output}`)))
  })
  url.catch(() => {}) // a server expected to fail never prints its URL
  return { child, url, exited, output: () => output }
}

describe('portico CLI', () => {
  it('serves, refuses a second server on the same data directory, and stops cleanly on SIGTERM', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portico-cli-'))
    const first = start(dataDir)
    const url = await first.url
    const health = (await (await fetch(`${url}/api/health`)).json()) as { database: string }
    expect(health.database).toBe('pglite')

    const second = start(dataDir)
    expect(await second.exited).toBe(1)
    expect(second.output()).toContain(`is using the data directory ${dataDir}`)

    first.child.kill('SIGTERM')
    expect(await first.exited).toBe(0)
    expect(fs.existsSync(path.join(dataDir, 'portico.lock'))).toBe(false)
    fs.rmSync(dataDir, { recursive: true, force: true })
  }, 60_000)

  it('runs as `npx portico import parse FOLDER` from the repository root, without a build', () => {
    const root = path.resolve(path.dirname(cli), '../../..')
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portico-npx-'))
    const fixture = path.join(root, 'packages/server/test/fixtures/parse-dashboard')
    const run = spawnSync('npx', ['portico', 'import', 'parse', fixture], {
      cwd: root,
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' },
      encoding: 'utf8',
      timeout: 120_000,
    })
    expect(run.stderr).toBe('')
    expect(run.status).toBe(0)
    expect(run.stdout).toContain(`Importing 9 files into the embedded database in ${dataDir}`)
    expect(run.stdout).toContain('_User.json: 20 rows imported, 0 already there, 0 refused')
    expect(run.stdout).toContain('Wallet.json: 24 rows imported, 0 already there, 0 refused')
    const unknown = spawnSync('npx', ['portico', 'import', 'parse', fixture, '--fast'], {
      cwd: root,
      env: { ...process.env, DATA_DIR: dataDir },
      encoding: 'utf8',
    })
    expect(unknown.status).toBe(1)
    expect(unknown.stderr).toMatch(/Unknown option --fast/)
    fs.rmSync(dataDir, { recursive: true, force: true })
  }, 180_000)
})
