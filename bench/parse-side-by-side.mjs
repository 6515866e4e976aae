// Portico beside Parse Server 9 on one PostgreSQL: the same Parse REST calls (master key, as a
// server-side job sends them) to Portico's compatibility mount and to Parse Server, each its own
// process with its own database on the same PostgreSQL server, 16 requests in flight. Creates
// (`POST /classes/Item`) and page queries (an equality, newest first, 20) are timed in rounds,
// the two servers taking turns in each round (first one, then the other, alternating), and
// printed as the median rate of the rounds and Portico's ratio to Parse Server (target ≥ 2 for
// creates).
//   DATABASE_URL=postgres://user@127.0.0.1:5432/postgres npm run bench:parse
//   (an admin URL: two databases are created and dropped) BENCH_ROUNDS=3 BENCH_REQUESTS=2000
// Only 127.0.0.1; bounded in time; stops its servers itself.
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import http from 'node:http'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import pg from 'pg'
import { send, startTarget } from './http.mjs'

const adminUrl = process.env.DATABASE_URL
if (!adminUrl) {
  console.error('bench:parse needs PostgreSQL: set DATABASE_URL to an admin URL')
  process.exit(1)
}
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const rounds = Math.max(3, Number(process.env.BENCH_ROUNDS ?? 3))
const count = Number(process.env.BENCH_REQUESTS ?? 2_000)
const concurrency = 16
const appId = 'bench'
const masterKey = 'bench-master-key-0123456789'
const suffix = Date.now().toString(36)
const databases = { portico: `bench_portico_${suffix}`, parse: `bench_parse_${suffix}` }

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portico-bench-parse-'))
/** @type {import('node:child_process').ChildProcess[]} */
const children = []
process.on('exit', () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL')
  fs.rmSync(dataDir, { recursive: true, force: true })
})
process.on('SIGINT', () => process.exit(130))
setTimeout(() => {
  console.error('bench:parse took longer than 15 minutes, stopping')
  process.exit(1)
}, 900_000).unref()

const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency })

/** @param {string} sqlText */
async function admin(sqlText) {
  const client = new pg.Client({ connectionString: adminUrl })
  await client.connect()
  try {
    await client.query(sqlText)
  } finally {
    await client.end()
  }
}

/** @param {string} name */
function databaseUrl(name) {
  const url = new URL(/** @type {string} */ (adminUrl))
  url.pathname = `/${name}`
  return url.toString()
}

/** @returns {Promise<number>} */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = /** @type {net.AddressInfo} */ (server.address())
      server.close(() => resolve(port))
    })
  })
}

/** @returns {Promise<string>} Parse Server's mount URL. */
async function startParse() {
  const port = await freePort()
  const child = spawn(
    process.execPath,
    [path.join(root, 'bench/parse-target.mjs'), String(port), appId, masterKey],
    {
      cwd: root,
      env: { ...process.env, DATABASE_URL: databaseUrl(databases.parse) },
      stdio: ['ignore', 'pipe', 'ignore'],
    },
  )
  children.push(child)
  return new Promise((resolve, reject) => {
    let output = ''
    child.stdout.on('data', (chunk) => {
      output += chunk
      const line = output.split('\n').find((l) => l.startsWith('{'))
      if (line) resolve(JSON.parse(line).url)
    })
    child.once('exit', (code) => reject(new Error(`Parse Server exited early (code ${code})`)))
  })
}

/**
 * `total` requests, `concurrency` in flight; the rate a second.
 * @param {(i: number) => Promise<number>} request
 * @param {number} total
 */
async function rate(request, total) {
  let next = 0
  let failed = 0
  const started = performance.now()
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        const status = await request(next++)
        if (status >= 400) failed++
      }
    }),
  )
  const seconds = (performance.now() - started) / 1000
  if (failed) throw new Error(`${failed} of ${total} requests failed`)
  return total / seconds
}

/**
 * CPU time (ms) a process has used, from /proc (Linux; NaN elsewhere), with its live children's
 * and, with `reaped`, its exited children's (PostgreSQL's backends are its postmaster's
 * children, and the pool's idle ones come and go).
 * @param {number | undefined} pid
 * @param {boolean} [reaped]
 * @returns {number}
 */
function cpuMs(pid, reaped = false) {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? []
    const ticks = [11, 12, ...(reaped ? [13, 14] : [])].reduce((n, i) => n + Number(fields[i]), 0)
    const children = fs
      .readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
      .trim()
      .split(/\s+/)
      .filter(Boolean)
    return (ticks * 1000) / 100 + children.reduce((sum, child) => sum + cpuMs(Number(child)), 0)
  } catch {
    return Number.NaN
  }
}

/** The PostgreSQL server's postmaster, when it runs on this machine and its files are readable. */
async function postmasterPid() {
  const client = new pg.Client({ connectionString: adminUrl })
  await client.connect()
  try {
    const { rows } = await client.query('show data_directory')
    const dir = /** @type {{ data_directory: string }} */ (rows[0]).data_directory
    return Number(fs.readFileSync(path.join(dir, 'postmaster.pid'), 'utf8').split('\n')[0])
  } catch {
    return undefined
  } finally {
    await client.end()
  }
}

/** @param {number[]} values */
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN

async function main() {
  await admin(`create database ${databases.portico}`)
  await admin(`create database ${databases.parse}`)
  try {
    const portico = await startTarget(
      dataDir,
      {
        DATABASE_URL: databaseUrl(databases.portico),
        APP_ID: appId,
        MASTER_KEY: masterKey,
      },
      children,
    )
    const servers = { portico: `${portico.url}/server`, parse: await startParse() }
    const pids = { portico: portico.child.pid, parse: children.at(-1)?.pid }
    const postgres = await postmasterPid()
    const headers = {
      'x-parse-application-id': appId,
      'x-parse-master-key': masterKey,
    }
    /** @param {string} base */
    const create = (base) => (/** @type {number} */ i) =>
      send(`${base}/classes/Item`, {
        agent,
        method: 'POST',
        headers,
        body: JSON.stringify({ kind: `k${i % 20}`, score: i % 1000, name: `item ${i}` }),
      })
    /** @param {string} base */
    const page = (base) => (/** @type {number} */ i) =>
      send(
        `${base}/classes/Item?where=${encodeURIComponent(JSON.stringify({ kind: `k${i % 20}` }))}&order=-createdAt&limit=20`,
        { agent, headers },
      )
    // Warm-up: each server's class made, its code paths compiled.
    for (const base of Object.values(servers)) {
      await rate(create(base), 400)
      await rate(page(base), 400)
    }
    /** @type {Record<string, { creates: number[], pages: number[] }>} */
    const figures = { portico: { creates: [], pages: [] }, parse: { creates: [], pages: [] } }
    // CPU (ms) each server and PostgreSQL used in each phase: what a create or a page costs
    // whatever else runs on the machine.
    const cpu = {
      portico: { creates: { server: 0, postgres: 0 }, pages: { server: 0, postgres: 0 } },
      parse: { creates: { server: 0, postgres: 0 }, pages: { server: 0, postgres: 0 } },
    }
    /**
     * @param {'portico' | 'parse'} name
     * @param {'creates' | 'pages'} phase
     * @param {() => Promise<number>} run
     */
    const accounted = async (name, phase, run) => {
      const before = [cpuMs(pids[name]), cpuMs(postgres, true)]
      const result = await run()
      cpu[name][phase].server += cpuMs(pids[name]) - /** @type {number} */ (before[0])
      cpu[name][phase].postgres += cpuMs(postgres, true) - /** @type {number} */ (before[1])
      return result
    }
    for (let round = 0; round < rounds; round++) {
      /** @type {('portico' | 'parse')[]} */
      const order = round % 2 === 0 ? ['portico', 'parse'] : ['parse', 'portico']
      for (const name of order) {
        const base = servers[name]
        figures[name]?.creates.push(
          await accounted(name, 'creates', () => rate(create(base), count)),
        )
        figures[name]?.pages.push(await accounted(name, 'pages', () => rate(page(base), count)))
      }
      console.log(`  round ${round + 1} of ${rounds} done`)
    }
    const load = os.loadavg().map((n) => n.toFixed(2))
    console.log(
      `\nbench:parse: Portico ${'vs'} Parse Server 9 on one PostgreSQL (${count} requests a phase, ${concurrency} in flight, median of ${rounds} rounds; load ${load.join(' ')})`,
    )
    console.log(
      `${'calls'.padEnd(36)}${'Portico /s'.padStart(12)}${'Parse /s'.padStart(12)}${'ratio'.padStart(9)}`,
    )
    for (const [label, key] of /** @type {const} */ ([
      ['creates (POST /classes/Item)', 'creates'],
      ['page: kind = k?, newest first, 20', 'pages'],
    ])) {
      const mine = median(figures.portico?.[key] ?? [])
      const theirs = median(figures.parse?.[key] ?? [])
      console.log(
        `${label.padEnd(36)}${mine.toFixed(0).padStart(12)}${theirs.toFixed(0).padStart(12)}${(mine / theirs).toFixed(2).padStart(8)}×`,
      )
    }
    /** @param {number} ms */
    const perCall = (ms) =>
      Number.isNaN(ms) ? 'not measured' : `${((ms * 1000) / (count * rounds)).toFixed(0)} µs`
    for (const key of /** @type {const} */ (['creates', 'pages'])) {
      const { portico: mine, parse: theirs } = { portico: cpu.portico[key], parse: cpu.parse[key] }
      console.log(
        `CPU per call, ${key}: Portico ${perCall(mine.server)} + PostgreSQL ${perCall(mine.postgres)}; Parse Server ${perCall(theirs.server)} + PostgreSQL ${perCall(theirs.postgres)}`,
      )
    }
  } finally {
    agent.destroy()
    for (const child of children) if (child.exitCode === null) child.kill('SIGTERM')
    await Promise.all(
      children.map((child) =>
        child.exitCode === null ? new Promise((resolve) => child.once('exit', resolve)) : null,
      ),
    )
    await admin(`drop database if exists ${databases.portico} with (force)`)
    await admin(`drop database if exists ${databases.parse} with (force)`)
  }
}

main().catch((error) => {
  console.error(error)
  process.exitCode = 1
})
