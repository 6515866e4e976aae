#!/usr/bin/env node
// Builds what the browser tests run (the web app with test-only settings into apps/web/dist-e2e,
// and the server into packages/server/dist), unless the last build here was made from the same
// sources, lockfile, settings and Node: a second `npm run test:e2e` then starts at once instead of
// spending a minute or more on a build whose output would be the same.
import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const outputs = ['apps/web/dist-e2e/index.html', 'packages/server/dist/cli.js']
const stampFile = path.join(root, 'node_modules', '.cache', 'portico', 'e2e-build.json')
/** The test-only settings the app is built with (read by the web build through Vite's env). */
const settings = {
  PORTICO_WEB_OUT_DIR: 'dist-e2e',
  VITE_WALLETCONNECT_PROJECT_ID: 'portico-e2e-test',
}

/**
 * What the build reads: every file git tracks or would track under the built workspaces (the
 * outputs are ignored), by name, size and modification time; the settings, every `VITE_`
 * variable, and Node's version.
 */
function inputs() {
  const files = execFileSync(
    'git',
    [
      'ls-files',
      '--cached',
      '--others',
      '--exclude-standard',
      '-z',
      '--',
      'apps/web',
      'packages',
      'package.json',
      'package-lock.json',
      'tsconfig.base.json',
    ],
    { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
  )
    .split('\0')
    .filter(Boolean)
    .sort()
  const hash = createHash('sha256')
  for (const file of files) {
    // A file deleted from the working tree but still in the index is simply absent.
    const stat = fs.statSync(path.join(root, file), { throwIfNoEntry: false })
    hash.update(`${file}\0${stat ? `${stat.size}:${stat.mtimeMs}` : '-'}\n`)
  }
  const env = Object.entries(process.env)
    .filter(([name]) => name.startsWith('VITE_'))
    .sort(([a], [b]) => a.localeCompare(b))
  hash.update(JSON.stringify({ settings, env, node: process.version }))
  return hash.digest('hex')
}

const key = inputs()
const built = outputs.every((file) => fs.existsSync(path.join(root, file)))
const stamp = fs.existsSync(stampFile) ? JSON.parse(fs.readFileSync(stampFile, 'utf8')) : {}
if (built && stamp.key === key) {
  console.log('e2e build: sources unchanged since the last build, reusing it')
} else {
  execFileSync('npm', ['run', 'build'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, ...settings },
  })
  fs.mkdirSync(path.dirname(stampFile), { recursive: true })
  fs.writeFileSync(stampFile, JSON.stringify({ key }))
}
