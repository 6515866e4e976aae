// Object queries as a class grows: one class filled with 1k, 10k, 100k and 1M objects (owned in
// turn by the signed-in caller and three other users, every third one public), and at each size
// the median time of the queries sites ask most, sent through the real route as the SDK sends
// them, one at a time, as a rate (requests a second) and as a ratio to that rate at the first
// size. The page query at 1M may take at most 3× its time at 1k, and the filter-and-sort page
// (an equality on one field, sorted on another: 200 matches per tag at 100k) must keep at least
// 0.8 of its rate at the first size.
//   npm run bench:objects             (PGlite in a temp dir; DATABASE_URL=postgres://… for PostgreSQL)
//   BENCH_SIZES=1000,10000,100000,1000000 (default)   BENCH_RUNS=41 (requests per query and size)
//   BENCH_VACUUM=1 vacuums after each fill, as autovacuum would on PostgreSQL
// Only 127.0.0.1; bounded in time; stops its server itself.
import fs from 'node:fs'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import { startTarget } from './http.mjs'

const sizes = (process.env.BENCH_SIZES ?? '1000,10000,100000,1000000').split(',').map(Number)
const runs = Number(process.env.BENCH_RUNS ?? 41)
const growthBudget = 3
/** The least share of its first-size rate the filter-and-sort page keeps at every size. */
const filterSortFloor = 0.8

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portico-bench-objects-'))
/** @type {import('node:child_process').ChildProcess[]} */
const children = []
process.on('exit', () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL')
  fs.rmSync(dataDir, { recursive: true, force: true })
})
process.on('SIGINT', () => process.exit(130))
setTimeout(() => {
  console.error('bench:objects took longer than 40 minutes, stopping')
  process.exit(1)
}, 2_400_000).unref()

const agent = new http.Agent({ keepAlive: true, maxSockets: 4 })

/**
 * @param {string} url
 * @param {{ method?: string, headers?: Record<string, string>, body?: string }} [options]
 * @returns {Promise<{ status: number, json: any }>}
 */
function call(url, { method = 'GET', headers = {}, body } = {}) {
  return new Promise((resolve, reject) => {
    const request = http.request(
      url,
      {
        method,
        agent,
        headers: body ? { 'content-type': 'application/json', ...headers } : headers,
      },
      (response) => {
        let text = ''
        response.setEncoding('utf8')
        response.on('data', (chunk) => (text += chunk))
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, json: text ? JSON.parse(text) : null }),
        )
        response.on('error', reject)
      },
    )
    request.on('error', reject)
    request.end(body)
  })
}

/** @param {number[]} values */
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN

async function main() {
  const { url, token, userId } = await startTarget(dataDir, {}, children)
  const headers = { authorization: `Bearer ${token}` }
  const className = `Growth${Date.now().toString(36)}`
  const classUrl = `${url}/api/classes/${className}`
  /** @param {object} where */
  const w = (where) => encodeURIComponent(JSON.stringify(where))
  /** @type {[string, () => string][]} */
  const queries = [
    [
      'page: kind = k7, newest first, 20',
      () => `${classUrl}?where=${w({ kind: 'k7' })}&order=-createdAt&limit=20`,
    ],
    [
      'filter and sort: tag = t17, -score, 20',
      () => `${classUrl}?where=${w({ tag: 't17' })}&order=-score&limit=20`,
    ],
    ['equality: kind = k7, 20', () => `${classUrl}?where=${w({ kind: 'k7' })}&limit=20`],
    [
      'wide range (99%), newest first',
      () => `${classUrl}?where=${w({ score: { $gte: 10 } })}&order=-createdAt&limit=20`,
    ],
    [
      'narrow range (0.1%), newest first',
      () => `${classUrl}?where=${w({ score: { $gte: 999 } })}&order=-createdAt&limit=20`,
    ],
    [
      'range, order by the field',
      () => `${classUrl}?where=${w({ score: { $gte: 990 } })}&order=-score&limit=20`,
    ],
    [
      '$in, newest first',
      () =>
        `${classUrl}?where=${w({ kind: { $in: ['k1', 'k2', 'k3'] } })}&order=-createdAt&limit=20`,
    ],
    [
      'own objects, newest first',
      () => `${classUrl}?where=${w({ owner: userId })}&order=-createdAt&limit=20`,
    ],
    ['count of kind = k7', () => `${classUrl}?where=${w({ kind: 'k7' })}&count=1&limit=0`],
    // Read from the class's indexes alone (they hold the access rule's list).
    ['count of the class', () => `${classUrl}?count=1&limit=0`],
    ['count of own objects', () => `${classUrl}?where=${w({ owner: userId })}&count=1&limit=0`],
    [
      'fetch by id',
      () => `${classUrl}/g${4 * Math.floor((Math.random() * (sizes[0] ?? 1000)) / 4)}`,
    ],
  ]
  /** @type {Map<number, number[]>} */
  const table = new Map()
  let filled = 0
  for (const size of sizes) {
    const started = performance.now()
    // 100,000 a request: a million in one would outlast the server's request time-out.
    for (let from = filled; from < size; from += 100_000) {
      const to = Math.min(size, from + 100_000)
      const answer = await call(`${url}/bench/fill`, {
        method: 'POST',
        body: JSON.stringify({ className, from, to, owner: userId }),
      })
      if (answer.status !== 200) throw new Error(`fill answered ${answer.status}`)
    }
    filled = size
    const fillSeconds = (performance.now() - started) / 1000
    // Ask each query enough to have its fields indexed, then wait for the builds.
    for (const [, make] of queries) for (let i = 0; i < 10; i++) await call(make(), { headers })
    await call(`${url}/bench/indexes`)
    /** @type {number[]} */
    const medians = []
    for (const [name, make] of queries) {
      const times = []
      for (let i = 0; i < runs; i++) {
        const t0 = performance.now()
        const { status } = await call(make(), { headers })
        times.push(performance.now() - t0)
        if (status !== 200) throw new Error(`${name} answered ${status} at ${size}`)
      }
      medians.push(median(times))
    }
    table.set(size, medians)
    console.log(`  ${size.toLocaleString('en')} objects (filled in ${fillSeconds.toFixed(1)} s)`)
  }
  agent.destroy()

  console.log(
    `\nbench:objects (${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'}; median ms of ${runs} requests, one in flight, as the signed-in caller)`,
  )
  let failed = false
  {
    const head = sizes.map((s) => s.toLocaleString('en').padStart(10)).join('')
    console.log(
      `${'query'.padEnd(40)}${head}   ${sizes.at(-1)?.toLocaleString('en')}/${sizes[0]?.toLocaleString('en')}`,
    )
    queries.forEach(([name], q) => {
      const cells = sizes.map((s) => (table.get(s)?.[q] ?? NaN).toFixed(2).padStart(10)).join('')
      const growth =
        (table.get(/** @type {number} */ (sizes.at(-1)))?.[q] ?? NaN) /
        (table.get(/** @type {number} */ (sizes[0]))?.[q] ?? NaN)
      const verdict =
        q === 0
          ? growth <= growthBudget
            ? `  ≤ ${growthBudget} ok`
            : `  > ${growthBudget} OVER BUDGET`
          : ''
      if (q === 0 && !(growth <= growthBudget)) failed = true
      console.log(`${name.padEnd(40)}${cells}   ${growth.toFixed(2)}×${verdict}`)
    })
  }

  // The same medians as rates (one request in flight), each size's as a share of the first's.
  console.log(`\nrequests a second (share of the ${sizes[0]?.toLocaleString('en')} rate)`)
  console.log(
    `${'query'.padEnd(40)}${sizes.map((s) => s.toLocaleString('en').padStart(18)).join('')}`,
  )
  queries.forEach(([name], q) => {
    const first = 1000 / (table.get(/** @type {number} */ (sizes[0]))?.[q] ?? NaN)
    let verdict = ''
    const cells = sizes
      .map((s) => {
        const rate = 1000 / (table.get(s)?.[q] ?? NaN)
        const share = rate / first
        if (q === 1 && !(share >= filterSortFloor)) {
          failed = true
          verdict = `  < ${filterSortFloor} UNDER FLOOR`
        }
        return `${rate.toFixed(0).padStart(8)} (${share.toFixed(2)})`.padStart(18)
      })
      .join('')
    if (q === 1 && !verdict) verdict = `  ≥ ${filterSortFloor} ok`
    console.log(`${name.padEnd(40)}${cells}${verdict}`)
  })
  process.exitCode = failed ? 1 : 0
}

main()
  .catch((error) => {
    console.error(error)
    process.exitCode = 1
  })
  .finally(() => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGTERM')
  })
