// Reading through roles costs what reading as the owner does: one class of 100,000 objects that
// its owner reads through the ACL's user entry and a second user through one of the ten roles it
// holds (each object names one role). The same queries, through the real route, one at a time,
// as each of them; the role holder's rate must be at least 0.8 of the owner's.
//   npm run bench:roles            (PGlite in a temp dir; DATABASE_URL=postgres://… for PostgreSQL)
//   BENCH_ROLES_SIZE=100000 (default)
// Only 127.0.0.1; bounded in time; stops its server itself.
import fs from 'node:fs'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import { send, startTarget } from './http.mjs'

const size = Number(process.env.BENCH_ROLES_SIZE ?? 100_000)
const runs = 61
const wanted = 0.8

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portico-bench-roles-'))
/** @type {import('node:child_process').ChildProcess[]} */
const children = []
process.on('exit', () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL')
  fs.rmSync(dataDir, { recursive: true, force: true })
})
setTimeout(() => {
  console.error('bench:roles took longer than 10 minutes, stopping')
  process.exit(1)
}, 600_000).unref()

const agent = new http.Agent({ keepAlive: true, maxSockets: 2 })

/** @param {number[]} values */
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN

/**
 * Median ms of `runs` requests of `url` as each of two callers, asked in turn (after a few
 * unmeasured ones), so both meet the same machine.
 */
async function timeBoth(
  /** @type {string} */ url,
  /** @type {Record<string, string>} */ first,
  /** @type {Record<string, string>} */ second,
) {
  /** @type {[number[], number[]]} */
  const times = [[], []]
  for (let i = -5; i < runs; i++)
    for (const [n, headers] of /** @type {const} */ ([
      [0, first],
      [1, second],
    ])) {
      const t0 = performance.now()
      const status = await send(url, { agent, headers })
      if (status !== 200) throw new Error(`${url} answered ${status}`)
      if (i >= 0) times[n].push(performance.now() - t0)
    }
  return times.map(median)
}

async function main() {
  const { url, token, userId } = await startTarget(dataDir, {}, children)
  const className = 'RoleBench'
  const filled = await fetch(`${url}/bench/roles`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ className, size, owner: userId }),
  })
  if (filled.status !== 200) throw new Error(`fill answered ${filled.status}`)
  const { token: memberToken } = /** @type {{ token: string }} */ (await filled.json())
  const w = (/** @type {object} */ where) => encodeURIComponent(JSON.stringify(where))
  const classUrl = `${url}/api/classes/${className}`
  /** @type {[string, string][]} */
  const queries = [
    ['page: newest first, 20', `${classUrl}?order=-createdAt&limit=20`],
    [
      'page: kind = k7, newest first',
      `${classUrl}?where=${w({ kind: 'k7' })}&order=-createdAt&limit=20`,
    ],
    ['count of kind = k7', `${classUrl}?where=${w({ kind: 'k7' })}&count=1&limit=0`],
    ['fetch by id', `${classUrl}/r4242`],
  ]
  const owner = { authorization: `Bearer ${token}` }
  const member = { authorization: `Bearer ${memberToken}` }
  // Index builds the queries ask for happen before anything is measured.
  for (const [, query] of queries)
    for (let i = 0; i < 10; i++) await send(query, { agent, headers: owner })
  await fetch(`${url}/bench/indexes`)
  console.log(
    `bench:roles (${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'}; ${size.toLocaleString('en')} objects; median ms of ${runs}, owner and role holder in turn)`,
  )
  console.log(`${'query'.padEnd(34)}${'owner'.padStart(9)}${'10 roles'.padStart(10)}   rate ratio`)
  let failed = false
  for (const [name, query] of queries) {
    const [ownerMs = NaN, asMember = NaN] = await timeBoth(query, owner, member)
    const ratio = ownerMs / asMember
    if (!(ratio >= wanted)) failed = true
    console.log(
      `${name.padEnd(34)}${ownerMs.toFixed(2).padStart(9)}${asMember.toFixed(2).padStart(10)}   ${ratio.toFixed(2)} ${ratio >= wanted ? `≥ ${wanted} ok` : `< ${wanted} BELOW`}`,
    )
  }
  agent.destroy()
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
