// Server throughput, every figure a ratio to a bare Fastify route measured
// in the same run on the same server process. Sections are independent functions that get the
// running target and the baseline; add yours to `sections` below.
//   npm run bench:server         (PGlite under a temp dir; DATABASE_URL=postgres://… for PostgreSQL)
// Only 127.0.0.1; bounded in count and time; stops its server itself.
import { randomUUID } from 'node:crypto'
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { send, startTarget } from './http.mjs'
import { createPublicClient, custom } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { createSiweMessage, verifySiweMessage } from 'viem/siwe'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
// Each figure is measured at every level of requests in flight (and the bare route again at each).
const levels = (process.env.BENCH_CONCURRENCY ?? '16,64').split(',').map(Number)
const count = Number(process.env.BENCH_REQUESTS ?? 4_000)
const phaseLimitMs = 20_000

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portico-bench-server-'))
/** @type {import('node:child_process').ChildProcess[]} */
const children = []
process.on('exit', () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL')
  fs.rmSync(dataDir, { recursive: true, force: true })
})
process.on('SIGINT', () => process.exit(130))
setTimeout(() => {
  console.error('bench:server took longer than 5 minutes, stopping')
  process.exit(1)
}, 300_000).unref()

const agent = new http.Agent({ keepAlive: true, maxSockets: Math.max(...levels) })

/**
 * One request on this benchmark's agent; resolves with the status code.
 * @param {string} url
 * @param {{ method?: string, headers?: Record<string, string>, body?: string }} [options]
 */
const request = (url, options = {}) => send(url, { agent, ...options })

/**
 * Runs `n` requests made by `make(i)` with `concurrency` in flight; every answer must have
 * `expected` status. Returns requests/s and how many were acknowledged.
 * @param {number} concurrency
 * @param {(i: number) => [string, Parameters<typeof request>[1]]} make
 * @param {number} expected
 * @param {number} [n]
 */
async function measure(concurrency, make, expected, n = count) {
  let next = 0
  let acknowledged = 0
  let failures = 0
  const started = performance.now()
  const deadline = started + phaseLimitMs
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < n && performance.now() < deadline) {
        const [url, options] = make(next++)
        if ((await request(url, options)) === expected) acknowledged++
        else failures++
      }
    }),
  )
  const seconds = (performance.now() - started) / 1000
  if (failures) throw new Error(`${failures} of ${next} requests failed`)
  return { perSecond: acknowledged / seconds, acknowledged }
}

/**
 * Counts the stored objects per class in a fresh process (after the server was killed).
 * @returns {Promise<Record<string, number>>}
 */
function countStored() {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        '--conditions=source',
        '--import',
        'tsx',
        path.join(root, 'bench/server-target.mjs'),
        dataDir,
        'count',
      ],
      { cwd: root, env: process.env, stdio: ['ignore', 'pipe', 'inherit'] },
    )
    let output = ''
    child.stdout.on('data', (chunk) => (output += chunk))
    child.once('exit', (code) =>
      code === 0
        ? resolve(JSON.parse(output.trim().split('\n').at(-1) ?? '{}'))
        : reject(new Error(`count exited ${code}`)),
    )
  })
}

/** @typedef {{ url: string, token: string, bare: number, concurrency: number }} Target */
/** @typedef {{ name: string, perSecond: number, ratio: number, target?: number, ofBare?: boolean }} Row */

/**
 * Objects: creates/s with an Idempotency-Key each, as the SDK sends them, queries/s of a
 * filtered, ordered page, and fetches by id. Targets: creates ≥ 0.15, queries ≥ 0.05, fetches
 * ≥ 0.1 × bare.
 * @param {Target} target
 * @returns {Promise<{ rows: Row[], acknowledged: Record<string, number> }>}
 */
async function objectsSection({ url, token, bare, concurrency }) {
  const auth = { authorization: `Bearer ${token}` }
  const create = (/** @type {number} */ i) =>
    /** @type {[string, Parameters<typeof request>[1]]} */ ([
      `${url}/api/classes/BenchItem`,
      {
        method: 'POST',
        headers: { ...auth, 'idempotency-key': randomUUID() },
        body: JSON.stringify({ data: { n: i, name: `item ${i}`, tags: ['a', 'b'] } }),
      },
    ])
  await measure(concurrency, create, 201, 300) // warm-up (counted as stored below)
  const creates = await measure(concurrency, create, 201)
  // A typical page: a filter on a field, newest first, 20 per page.
  const where = encodeURIComponent(JSON.stringify({ n: { $gte: 100 }, tags: ['a', 'b'] }))
  const query = () =>
    /** @type {[string, Parameters<typeof request>[1]]} */ ([
      `${url}/api/classes/BenchItem?where=${where}&order=-createdAt&limit=20`,
      { headers: auth },
    ])
  await measure(concurrency, query, 200, 100)
  const queries = await measure(concurrency, query, 200, Math.ceil(count / 4))
  // Fetch by id, spread over the objects made above (ids come from a page of them).
  const ids = await objectIds(`${url}/api/classes/BenchItem?limit=1000`, auth)
  const fetchOne = (/** @type {number} */ i) =>
    /** @type {[string, Parameters<typeof request>[1]]} */ ([
      `${url}/api/classes/BenchItem/${ids[i % ids.length]}`,
      { headers: auth },
    ])
  await measure(concurrency, fetchOne, 200, 200)
  const fetches = await measure(concurrency, fetchOne, 200)
  return {
    rows: [
      {
        name: `object creates/s @${concurrency}`,
        perSecond: creates.perSecond,
        ratio: creates.perSecond / bare,
        ofBare: true,
        target: 0.15,
      },
      {
        name: `object queries/s @${concurrency}`,
        perSecond: queries.perSecond,
        ratio: queries.perSecond / bare,
        ofBare: true,
        target: 0.05,
      },
      {
        name: `object fetches/s @${concurrency}`,
        perSecond: fetches.perSecond,
        ratio: fetches.perSecond / bare,
        ofBare: true,
        target: 0.1,
      },
    ],
    acknowledged: { BenchItem: 300 + creates.acknowledged },
  }
}

/**
 * The ids of a page of objects.
 * @param {string} url
 * @param {Record<string, string>} headers
 * @returns {Promise<string[]>}
 */
function objectIds(url, headers) {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent, headers }, (response) => {
        let text = ''
        response.setEncoding('utf8')
        response.on('data', (chunk) => (text += chunk))
        response.on('end', () =>
          resolve(
            JSON.parse(text).results.map((/** @type {{ objectId: string }} */ o) => o.objectId),
          ),
        )
      })
      .on('error', reject)
  })
}

/**
 * One request with a JSON answer (for the sign-in set-up).
 * @param {string} url
 * @param {string} body
 * @returns {Promise<{ status: number, json: any }>}
 */
function postJson(url, body) {
  return new Promise((resolve, reject) => {
    const request = http.request(
      url,
      {
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (response) => {
        let text = ''
        response.setEncoding('utf8')
        response.on('data', (chunk) => (text += chunk))
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, json: JSON.parse(text) }),
        )
        response.on('error', reject)
      },
    )
    request.on('error', reject)
    request.end(body)
  })
}

/**
 * Sign-in: POST /api/auth/verify of messages signed beforehand (each with its own
 * nonce), against raw viem `verifySiweMessage` calls on the same messages in this process (no
 * HTTP, no database; the same EOA-first mode the server uses). Target: ≥ 0.6 × raw.
 * @param {Target} target
 * @returns {Promise<{ rows: Row[], acknowledged: Record<string, number> }>}
 */
async function signInSection({ url, concurrency }) {
  const n = Math.min(count, Number(process.env.BENCH_SIGNINS ?? 1_000))
  const accounts = Array.from({ length: 16 }, () => privateKeyToAccount(generatePrivateKey()))
  /** @type {{ message: string, signature: `0x${string}` }[]} */
  const signed = []
  for (let i = 0; i < n; i++) {
    const { json: nonce } = await postJson(`${url}/api/auth/nonce`, '{}')
    const account = accounts[i % accounts.length] ?? accounts[0]
    if (!account) throw new Error('no account')
    const message = createSiweMessage({
      domain: nonce.domain,
      address: account.address,
      statement: nonce.statement,
      uri: nonce.uri,
      version: '1',
      chainId: nonce.chainIds[0],
      nonce: nonce.nonce,
      issuedAt: new Date(nonce.serverTime),
      expirationTime: new Date(nonce.expiresAt),
      requestId: nonce.appId,
    })
    signed.push({ message, signature: await account.signMessage({ message }) })
  }
  const offline = createPublicClient({
    transport: custom({
      request: async () => {
        throw new Error('offline')
      },
    }),
  })
  let started = performance.now()
  for (const item of signed) {
    if (!(await verifySiweMessage(offline, /** @type {any} */ ({ ...item, mode: 'eoa' })))) {
      throw new Error('raw verification failed')
    }
  }
  const raw = signed.length / ((performance.now() - started) / 1000)
  const verify = (/** @type {number} */ i) =>
    /** @type {[string, Parameters<typeof request>[1]]} */ ([
      `${url}/api/auth/verify`,
      { method: 'POST', body: JSON.stringify({ ...signed[i], mode: 'bearer' }) },
    ])
  const warmUp = Math.min(200, Math.floor(signed.length / 5))
  await measure(concurrency, verify, 200, warmUp)
  const signIns = await measure(concurrency, (i) => verify(warmUp + i), 200, signed.length - warmUp)
  return {
    rows: [
      { name: `raw verifySiweMessage/s`, perSecond: raw, ratio: 1 },
      {
        name: `sign-ins/s (vs raw) @${concurrency}`,
        perSecond: signIns.perSecond,
        ratio: signIns.perSecond / raw,
        target: 0.6,
      },
    ],
    acknowledged: {},
  }
}

/**
 * Events: POST /api/events, each answered after its group commit. Target ≥ 0.3 × bare.
 * @param {Target} target
 * @returns {Promise<{ rows: Row[], acknowledged: Record<string, number> }>}
 */
async function eventsSection({ url, bare, concurrency }) {
  const track = (/** @type {number} */ i) =>
    /** @type {[string, Parameters<typeof request>[1]]} */ ([
      `${url}/api/events`,
      {
        method: 'POST',
        body: JSON.stringify({
          subdomain: 'bench.example',
          event: 'page_view',
          options: { path: '/', i },
        }),
      },
    ])
  const warm = await measure(concurrency, track, 202, 2_000) // the same warm-up as the bare route
  const events = await measure(concurrency, track, 202)
  return {
    rows: [
      {
        name: `events accepted/s @${concurrency}`,
        perSecond: events.perSecond,
        ratio: events.perSecond / bare,
        ofBare: true,
        target: 0.3,
      },
    ],
    acknowledged: { events: warm.acknowledged + events.acknowledged },
  }
}

/**
 * The Moralis v1 / Parse compatibility mount: creates and the same filtered page as above, sent
 * the way the v1 clients send them (a text/plain POST carrying `_method`, `_ApplicationId` and an
 * `r:` session token), beside the `/api` figures.
 * @param {Target} target
 * @returns {Promise<{ rows: Row[], acknowledged: Record<string, number> }>}
 */
async function compatSection({ url, token, bare, concurrency }) {
  const envelope = (/** @type {Record<string, unknown>} */ body) =>
    JSON.stringify({ ...body, _ApplicationId: 'portico', _SessionToken: `r:${token}` })
  const headers = { 'content-type': 'text/plain' }
  const create = (/** @type {number} */ i) =>
    /** @type {[string, Parameters<typeof request>[1]]} */ ([
      `${url}/server/classes/BenchCompat`,
      { method: 'POST', headers, body: envelope({ n: i, name: `item ${i}`, tags: ['a', 'b'] }) },
    ])
  await measure(concurrency, create, 201, 300)
  const creates = await measure(concurrency, create, 201)
  const queryBody = envelope({
    _method: 'GET',
    where: { n: { $gte: 100 }, tags: ['a', 'b'] },
    order: '-createdAt',
    limit: 20,
  })
  const query = () =>
    /** @type {[string, Parameters<typeof request>[1]]} */ ([
      `${url}/server/classes/BenchCompat`,
      { method: 'POST', headers, body: queryBody },
    ])
  await measure(concurrency, query, 200, 100)
  const queries = await measure(concurrency, query, 200, Math.ceil(count / 4))
  return {
    rows: [
      {
        name: `/server creates/s @${concurrency}`,
        perSecond: creates.perSecond,
        ratio: creates.perSecond / bare,
        ofBare: true,
      },
      {
        name: `/server queries/s @${concurrency}`,
        perSecond: queries.perSecond,
        ratio: queries.perSecond / bare,
        ofBare: true,
      },
    ],
    acknowledged: { BenchCompat: 300 + creates.acknowledged },
  }
}

/**
 * Cloud code: creates in a class with an empty `beforeSave` (bench/cloud/main.js) against
 * creates in one without, measured in alternating stretches. Target: ≥ 0.9 of plain.
 * @param {Target} target
 * @returns {Promise<{ rows: Row[], acknowledged: Record<string, number> }>}
 */
async function cloudTriggerSection({ url, token, concurrency }) {
  const auth = { authorization: `Bearer ${token}` }
  const create = (/** @type {string} */ className) => (/** @type {number} */ i) =>
    /** @type {[string, Parameters<typeof request>[1]]} */ ([
      `${url}/api/classes/${className}`,
      {
        method: 'POST',
        headers: { ...auth, 'idempotency-key': randomUUID() },
        body: JSON.stringify({ data: { n: i, name: `item ${i}`, tags: ['a', 'b'] } }),
      },
    ])
  await measure(concurrency, create('BenchPlain'), 201, 300)
  await measure(concurrency, create('BenchTriggered'), 201, 300)
  // Plain and triggered creates take turns in short stretches, so that a change in the machine's
  // speed (other tenants) falls on both alike instead of on whichever ran at the time.
  const stretch = Math.max(200, Math.floor(count / 4))
  const totals = { plain: { seconds: 0, n: 0 }, triggered: { seconds: 0, n: 0 } }
  for (let turn = 0; turn < 4; turn++) {
    for (const [key, className] of /** @type {const} */ ([
      ['plain', 'BenchPlain'],
      ['triggered', 'BenchTriggered'],
    ])) {
      const result = await measure(concurrency, create(className), 201, stretch)
      totals[key].n += result.acknowledged
      totals[key].seconds += result.acknowledged / result.perSecond
    }
  }
  const plain = totals.plain.n / totals.plain.seconds
  const triggered = { perSecond: totals.triggered.n / totals.triggered.seconds }
  return {
    rows: [
      {
        name: `creates, empty beforeSave @${concurrency}`,
        perSecond: triggered.perSecond,
        ratio: triggered.perSecond / plain,
        target: 0.9,
      },
    ],
    acknowledged: {
      BenchPlain: 300 + totals.plain.n,
      BenchTriggered: 300 + totals.triggered.n,
    },
  }
}

/** Add sections here; each returns its rows and what it expects to be stored. */
const sections = [objectsSection, compatSection, signInSection, eventsSection, cloudTriggerSection]

async function main() {
  // PostgreSQL may hold earlier runs' rows: what this run stored is the growth of each count.
  const storedBefore = process.env.DATABASE_URL ? await countStored() : {}
  const { url, token, child } = await startTarget(
    dataDir,
    { CLOUD_CODE: path.join(root, 'bench/cloud/main.js') },
    children,
  )
  const bareBody = JSON.stringify({ data: { n: 1, name: 'item 1', tags: ['a', 'b'] } })
  const bareRequest = () =>
    /** @type {[string, Parameters<typeof request>[1]]} */ ([
      `${url}/bench/bare`,
      { method: 'POST', body: bareBody },
    ])
  /** @type {Record<string, number>} */
  const acknowledged = {}
  // BENCH_ONLY=signInSection,eventsSection runs only those sections.
  const only = process.env.BENCH_ONLY?.split(',')
  // BENCH_ROUNDS=3 runs everything three times and prints each figure's median (and the rounds).
  const rounds = Number(process.env.BENCH_ROUNDS ?? 1)
  /** @type {Map<string, Row[]>} */
  const byName = new Map()
  const keep = (/** @type {Row} */ row) =>
    byName.set(row.name, [...(byName.get(row.name) ?? []), row])
  for (let round = 0; round < rounds; round++) {
    for (const concurrency of levels) {
      await measure(concurrency, bareRequest, 200, 2_000) // warm-up
      // The bare route is measured just before and just after each section, and the section's
      // ratios are to the mean of the two: the machine's speed drifts over a run (other tenants
      // of the host), and a baseline taken a minute earlier would carry that drift into the ratio.
      const bareRate = async () => (await measure(concurrency, bareRequest, 200)).perSecond
      /** @type {number[]} */
      const bares = []
      /** @type {Row[]} */
      const sectionRows = []
      for (const section of sections) {
        if (only && !only.includes(section.name)) continue
        const before = await bareRate()
        const result = await section({ url, token, bare: before, concurrency })
        const after = await bareRate()
        bares.push(before, after)
        const baseline = (before + after) / 2
        for (const row of result.rows) if (row.ofBare) row.ratio = row.perSecond / baseline
        sectionRows.push(...result.rows)
        for (const [name, n] of Object.entries(result.acknowledged)) {
          acknowledged[name] = (acknowledged[name] ?? 0) + n
        }
      }
      const bare = bares.reduce((a, b) => a + b, 0) / bares.length
      keep({ name: `bare route req/s @${concurrency}`, perSecond: bare, ratio: 1 })
      sectionRows.forEach(keep)
    }
  }
  /** @param {number[]} values */
  const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0
  /** @type {(Row & { rounds: number[] })[]} */
  const rows = [...byName.entries()].map(([name, list]) => ({
    ...list[0],
    name,
    perSecond: median(list.map((row) => row.perSecond)),
    ratio: median(list.map((row) => row.ratio)),
    rounds: list.map((row) => row.ratio),
  }))

  // Durability: kill the server without warning, reopen the data, every acknowledged write is there.
  child.kill('SIGKILL')
  await new Promise((resolve) => child.once('exit', resolve))
  agent.destroy()
  const storedAfter = await countStored()

  console.log(
    `\nbench:server (${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'}; @n = requests in flight; ${rounds} round${rounds > 1 ? 's, medians' : ''})`,
  )
  let failed = false
  for (const row of rows) {
    const verdict =
      row.target === undefined
        ? ''
        : row.ratio >= row.target
          ? `  ≥ ${row.target} ok`
          : `  < ${row.target} BELOW TARGET`
    if (row.target !== undefined && row.ratio < row.target) failed = true
    const perRound =
      row.rounds.length > 1 && row.ratio !== 1
        ? `  (rounds: ${row.rounds.map((r) => r.toFixed(3)).join(' ')})`
        : ''
    console.log(
      `${row.name.padEnd(28)} ${row.perSecond.toFixed(0).padStart(8)}   ratio ${row.ratio.toFixed(3)}${verdict}${perRound}`,
    )
  }
  for (const [className, n] of Object.entries(acknowledged)) {
    const found = (storedAfter[className] ?? 0) - (storedBefore[className] ?? 0)
    const ok = found >= n
    if (!ok) failed = true
    console.log(
      `durable ${className}: ${n} acknowledged, ${found} stored after SIGKILL${ok ? '' : '  LOST WRITES'}`,
    )
  }
  process.exitCode = failed ? 1 : 0
}

main().catch((error) => {
  console.error(error)
  process.exit(1)
})
