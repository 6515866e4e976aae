// How long the built server takes to be ready, beside the least a Node server can take on this
// machine in the same run: a bare `node:http` server started the same way, timed to its first
// answer. Each start is timed from the spawn to `GET /api/ready` answering 200 (the port opens
// earlier and answers 503 while the server starts): on an empty DATA_DIR, on the one that start
// left, and on the PostgreSQL that DATABASE_URL names. Then the command line's commands, timed
// to their first line of output. Three runs of each, interleaved; each figure is printed as
// min / median / max in milliseconds.
//   npm run bench:start            (needs `npm run build -w @portico/server`)
// Only 127.0.0.1; stops what it starts.
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { freePort } from '@portico/test-kit/ports'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const cli = path.join(root, 'packages', 'server', 'dist', 'cli.js')
if (!fs.existsSync(cli)) {
  console.error('bench:start needs the built server: npm run build -w @portico/server')
  process.exit(1)
}
const runs = Number(process.env.BENCH_RUNS ?? 3)
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'portico-bench-start-'))
/** @type {Set<import('node:child_process').ChildProcess>} */
const children = new Set()
/** Stops what the run started and removes its files, however the run ends. */
function stopEverything() {
  for (const child of children) child.kill('SIGKILL')
  fs.rmSync(scratch, { recursive: true, force: true })
}
process.on('exit', stopEverything)
process.on('SIGINT', () => process.exit(130))
const giveUp = () => {
  console.error('bench:start took longer than 20 minutes, stopping')
  process.exit(1)
}
setTimeout(giveUp, 1_200_000).unref()

/**
 * Resolves with the status of one GET, or 0 when nothing answers.
 * @param {string} url
 * @returns {Promise<number>}
 */
function status(url) {
  return new Promise((resolve) => {
    const request = http.get(url, { agent: false }, (response) => {
      response.resume()
      resolve(response.statusCode ?? 0)
    })
    request.on('error', () => resolve(0))
    request.setTimeout(2_000, () => request.destroy())
  })
}

/**
 * Spawns `node args…` and polls `url` every 5 ms until it answers 200; resolves with the
 * milliseconds from the spawn, and stops the process (SIGTERM, as a supervisor does).
 * @param {string[]} args
 * @param {string} url
 * @param {Record<string, string>} [env]
 * @returns {Promise<number>}
 */
async function timeToReady(args, url, env = {}) {
  const started = performance.now()
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: { ...process.env, LOG_LEVEL: 'silent', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  children.add(child)
  let errors = ''
  child.stderr.on('data', (chunk) => (errors += chunk))
  const exited = new Promise((resolve) => child.on('exit', resolve))
  /** @type {number} */
  let ms
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${args.join(' ')} exited early:\n${errors}`)
    if ((await status(url)) === 200) {
      ms = performance.now() - started
      break
    }
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
  child.kill('SIGTERM')
  await exited
  children.delete(child)
  return ms
}

/**
 * Spawns `node cli.js args…`; resolves with the milliseconds to its first byte of output.
 * @param {string[]} args
 * @param {Record<string, string>} env
 * @returns {Promise<number>}
 */
function timeToOutput(args, env) {
  return new Promise((resolve, reject) => {
    const started = performance.now()
    const child = spawn(process.execPath, [cli, ...args], {
      cwd: root,
      env: { ...process.env, LOG_LEVEL: 'silent', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    children.add(child)
    /** @type {number | undefined} */
    let ms
    const first = () => (ms ??= performance.now() - started)
    child.stdout.on('data', first)
    child.stderr.on('data', first)
    child.on('exit', () => {
      children.delete(child)
      if (ms === undefined) reject(new Error(`portico ${args.join(' ')} printed nothing`))
      else resolve(ms)
    })
  })
}

/** @param {number[]} values */
const summary = (values) => {
  const sorted = [...values].sort((a, b) => a - b)
  const ms = (/** @type {number | undefined} */ value) => `${Math.round(value ?? 0)}`.padStart(5)
  return `${ms(sorted[0])} / ${ms(medianOf(values))} / ${ms(sorted.at(-1))} ms`
}

const databaseUrl = process.env.DATABASE_URL
// A Parse Dashboard export of the test fixtures: the import prints its first line once the
// database is open.
const exportFolder = path.join(root, 'packages', 'server', 'test', 'fixtures', 'parse-dashboard')

// The anchor: the least a Node HTTP server does before it answers.
const bareServer =
  "require('node:http').createServer((q, s) => s.end('ok')).listen(Number(process.argv[1]), '127.0.0.1')"

/** @type {Map<string, number[]>} */
const figures = new Map()
/** @param {string} name @param {number} ms */
const record = (name, ms) => {
  figures.set(name, [...(figures.get(name) ?? []), ms])
  console.log(`${name}: ${Math.round(ms)} ms`)
}

for (let run = 1; run <= runs; run++) {
  const port = await freePort()
  const url = (/** @type {string} */ where) => `http://127.0.0.1:${port}${where}`
  record(
    'bare node:http server, first answer',
    await timeToReady(['-e', bareServer, String(port)], url('/')),
  )
  const dataDir = path.join(scratch, `data-${run}`)
  const serve = [cli]
  const env = { PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, DATABASE_URL: '' }
  record('portico, empty DATA_DIR', await timeToReady(serve, url('/api/ready'), env))
  record('portico, existing DATA_DIR', await timeToReady(serve, url('/api/ready'), env))
  if (databaseUrl)
    record(
      'portico, PostgreSQL',
      await timeToReady(serve, url('/api/ready'), { ...env, DATABASE_URL: databaseUrl }),
    )
  const cliEnv = { DATA_DIR: path.join(scratch, `cli-${run}`), DATABASE_URL: '' }
  record(
    'portico api-key create (empty DATA_DIR)',
    await timeToOutput(['api-key', 'create', '--label', 'bench'], cliEnv),
  )
  record('portico api-key list', await timeToOutput(['api-key', 'list'], cliEnv))
  record('portico sync', await timeToOutput(['sync'], cliEnv))
  record(
    'portico import parse (first line)',
    await timeToOutput(['import', 'parse', exportFolder], cliEnv),
  )
}

/** @param {number[]} values */
const medianOf = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0
const bare = figures.get('bare node:http server, first answer') ?? []
const bareMedian = medianOf(bare)
console.log(
  `\nbench:start, ${runs} runs each (min / median / max), load ${(os.loadavg()[0] ?? 0).toFixed(1)}:`,
)
for (const [name, values] of figures) {
  const median = medianOf(values)
  const beside = values === bare ? '' : `   (${(median / bareMedian).toFixed(1)}× the bare server)`
  console.log(`${name.padEnd(42)} ${summary(values)}${beside}`)
}
