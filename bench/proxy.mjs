// Two server processes on one PostgreSQL behind nginx (the shipped deploy/nginx/portico-proxy.conf)
// against one process reached directly: creates, page queries and events per second, each as a
// ratio to the bare route reached the same way in the same run, and the two-process figure as a
// ratio to the one-process one.
//   DATABASE_URL=postgres://… node bench/proxy.mjs      (npm run bench:proxy)
// Only 127.0.0.1; starts and stops its own nginx (Debian's) and servers.
import { randomUUID } from 'node:crypto'
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { send } from './http.mjs'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
if (!process.env.DATABASE_URL) {
  console.error(
    'bench:proxy needs PostgreSQL: set DATABASE_URL=postgres://… (several processes share it)',
  )
  process.exit(1)
}
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 64)
const count = Number(process.env.BENCH_REQUESTS ?? 4_000)
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'portico-bench-proxy-'))
/** @type {import('node:child_process').ChildProcess[]} */
const children = []
// Stopped from outside: still stop what this script started.
process.on('SIGTERM', () => process.exit(143))
process.on('SIGINT', () => process.exit(130))
process.on('exit', () => {
  // nginx's master stops its workers on SIGTERM; killed with SIGKILL it would leave them running.
  for (const child of children)
    if (child.exitCode === null) child.kill(child === nginxChild ? 'SIGTERM' : 'SIGKILL')
  fs.rmSync(work, { recursive: true, force: true })
})
/** @type {import('node:child_process').ChildProcess | undefined} */
let nginxChild
setTimeout(() => {
  console.error('bench:proxy took longer than 5 minutes, stopping')
  process.exit(1)
}, 300_000).unref()

/** @returns {Promise<{ url: string, token: string }>} */
function startTarget() {
  const child = spawn(
    process.execPath,
    ['--conditions=source', '--import', 'tsx', path.join(root, 'bench/server-target.mjs'), work],
    {
      cwd: root,
      env: { ...process.env, TRUST_PROXY: '127.0.0.1' },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  )
  children.push(child)
  return new Promise((resolve, reject) => {
    let output = ''
    child.stdout.on('data', (/** @type {Buffer} */ chunk) => {
      output += chunk
      const line = output.split('\n').find((l) => l.startsWith('{'))
      if (line) resolve(JSON.parse(line))
    })
    child.once('exit', (/** @type {number | null} */ code) =>
      reject(new Error(`server exited (code ${code})`)),
    )
  })
}

const first = await startTarget()
const targets = [first, await startTarget()]
const proxyPort = 20_000 + Math.floor(Math.random() * 20_000)
fs.writeFileSync(
  path.join(work, 'nginx.conf'),
  `daemon off;
worker_processes auto;
pid ${work}/nginx.pid;
error_log ${work}/error.log warn;
events { worker_connections 4096; }
http {
  access_log off;
  map $http_upgrade $connection_upgrade { default upgrade; '' ''; }
  upstream portico {
${targets.map((t) => `    server ${new URL(t.url).host};`).join('\n')}
    keepalive 64;
  }
  server {
    listen 127.0.0.1:${proxyPort};
    include ${path.join(root, 'deploy/nginx/portico-proxy.conf')};
  }
}
`,
)
const nginx = spawn('/usr/sbin/nginx', ['-p', work, '-c', path.join(work, 'nginx.conf')], {
  stdio: 'inherit',
})
children.push(nginx)
nginxChild = nginx
const proxied = `http://127.0.0.1:${proxyPort}`
for (let tries = 0; tries < 100; tries++) {
  const answer = await fetch(`${proxied}/api/ready`).catch(() => null)
  if (answer?.status === 200) break
  await new Promise((resolve) => setTimeout(resolve, 100))
}

const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency })

/**
 * Requests/s of `make(i)` with `concurrency` in flight, every answer `expected`.
 * @param {(i: number) => [string, { method?: string, headers?: Record<string, string>, body?: string }]} make
 * @param {number} expected
 * @param {number} n
 */
async function measure(make, expected, n = count) {
  let next = 0
  let failures = 0
  const started = performance.now()
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < n) {
        const [url, options] = make(next++)
        if ((await send(url, { agent, ...options })) !== expected) failures++
      }
    }),
  )
  if (failures) throw new Error(`${failures} of ${n} requests failed`)
  return n / ((performance.now() - started) / 1000)
}

/** @param {string} base @param {string} token */
async function figures(base, token) {
  const auth = { authorization: `Bearer ${token}` }
  const bare = () =>
    /** @type {[string, {}]} */ ([`${base}/bench/bare`, { method: 'POST', body: '{"n":1}' }])
  await measure(bare, 200, 2_000)
  const bareRate = await measure(bare, 200)
  const create = (/** @type {number} */ i) =>
    /** @type {[string, {}]} */ ([
      `${base}/api/classes/ProxyItem`,
      {
        method: 'POST',
        headers: { ...auth, 'idempotency-key': randomUUID() },
        body: JSON.stringify({ data: { n: i, tags: ['a'] } }),
      },
    ])
  const creates = await measure(create, 201)
  const where = encodeURIComponent(JSON.stringify({ n: { $gte: 100 } }))
  const query = () =>
    /** @type {[string, {}]} */ ([
      `${base}/api/classes/ProxyItem?where=${where}&order=-createdAt&limit=20`,
      { headers: auth },
    ])
  const queries = await measure(query, 200, Math.ceil(count / 8))
  const track = (/** @type {number} */ i) =>
    /** @type {[string, {}]} */ ([
      `${base}/api/events`,
      {
        method: 'POST',
        body: JSON.stringify({ subdomain: 'bench', event: 'page_view', options: { i } }),
      },
    ])
  const events = await measure(track, 202)
  return { bare: bareRate, creates, queries, events }
}

const one = await figures(first.url, first.token)
const two = await figures(proxied, first.token)
console.log(
  `\nbench:proxy (PostgreSQL; ${os.cpus().length} cores; ${concurrency} in flight; load ${(os.loadavg()[0] ?? 0).toFixed(2)})`,
)
console.log(
  '                      one process, direct          two processes via nginx      two / one',
)
for (const name of /** @type {const} */ (['bare', 'creates', 'queries', 'events'])) {
  const a = one[name]
  const b = two[name]
  console.log(
    `${name.padEnd(20)}  ${a.toFixed(0).padStart(7)}/s  ratio ${(a / one.bare).toFixed(3)}    ${b.toFixed(0).padStart(7)}/s  ratio ${(b / two.bare).toFixed(3)}    ${(b / a).toFixed(2)}`,
  )
}
process.exit(0)
