// File transfers: upload and download throughput with files kept in the database and in an
// S3-compatible store (s3rver, started here), each as a ratio to bare streaming routes of the
// same server process (a body read and dropped, bytes streamed out), and the server's memory
// while it moves one 100 MB file (FILE_MAX_BYTES raised): it should stay flat with the store,
// and grows with the file in the database, which takes a file whole.
//   node bench/files.mjs        (npm run bench:files; DATABASE_URL=postgres://… for PostgreSQL)
// Only 127.0.0.1; bounded in time; stops what it started.
import fs from 'node:fs'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import S3rver from 's3rver'
import { startTarget } from './http.mjs'

const bigBytes = Number(process.env.BENCH_FILE_MB ?? 100) * 1024 * 1024
const smallBytes = 100 * 1024
const smallCount = Number(process.env.BENCH_FILES ?? 300)
const concurrency = 16
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'portico-bench-files-'))
/** @type {import('node:child_process').ChildProcess[]} */
const children = []
process.on('SIGTERM', () => process.exit(143))
process.on('SIGINT', () => process.exit(130))
process.on('exit', () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL')
  fs.rmSync(work, { recursive: true, force: true })
})
setTimeout(() => {
  console.error('bench:files took longer than 5 minutes, stopping')
  process.exit(1)
}, 300_000).unref()

const s3 = new S3rver({
  address: '127.0.0.1',
  port: 0,
  silent: true,
  directory: path.join(work, 's3'),
  configureBuckets: [{ name: 'portico-files', configs: [] }],
})
const { port: s3Port } = await s3.run()

/**
 * A server process keeping files where `env` says.
 * @param {string} name
 * @param {Record<string, string>} env
 * @returns {Promise<{ url: string, token: string, child: import('node:child_process').ChildProcess }>}
 */
function startStoreTarget(name, env) {
  const dataDir = path.join(work, name)
  fs.mkdirSync(dataDir, { recursive: true })
  return startTarget(
    dataDir,
    {
      FILE_MAX_BYTES: String(bigBytes + 1024),
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
      ...env,
    },
    children,
  )
}

/** Resident memory of a process now, in bytes (Linux). @param {number} pid */
function rss(pid) {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8')
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024
}

/**
 * Streams `total` bytes as the body of a POST, in 64 KB chunks; resolves with status and body.
 * @param {string} url
 * @param {number} total
 * @param {Record<string, string>} headers
 * @returns {Promise<{ status: number, body: string }>}
 */
function upload(url, total, headers) {
  return new Promise((resolve, reject) => {
    const request = http.request(
      url,
      { method: 'POST', headers: { 'content-type': 'application/octet-stream', ...headers } },
      (response) => {
        let body = ''
        response.on('data', (chunk) => (body += chunk))
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }))
      },
    )
    request.on('error', reject)
    const chunk = Buffer.alloc(64 * 1024, 1)
    let sent = 0
    const pump = () => {
      while (sent < total) {
        const piece = chunk.subarray(0, Math.min(chunk.length, total - sent))
        sent += piece.length
        if (!request.write(piece)) return void request.once('drain', pump)
      }
      request.end()
    }
    pump()
  })
}

/** Reads a GET's body and drops it; resolves with status and byte count. @param {string} url */
function download(url) {
  return new Promise((resolve, reject) => {
    http
      .get(url, (response) => {
        let size = 0
        response.on('data', (chunk) => (size += chunk.length))
        response.on('end', () => resolve({ status: response.statusCode ?? 0, size }))
      })
      .on('error', reject)
  })
}

/**
 * Runs `work` while sampling the server's memory; returns seconds taken and the peak growth.
 * @template T
 * @param {number} pid
 * @param {() => Promise<T>} run
 */
async function watched(pid, run) {
  const before = rss(pid)
  let peak = before
  const timer = setInterval(() => (peak = Math.max(peak, rss(pid))), 10)
  const started = performance.now()
  const result = await run()
  const seconds = (performance.now() - started) / 1000
  clearInterval(timer)
  peak = Math.max(peak, rss(pid))
  return { result, seconds, growth: peak - before }
}

/** @param {number} n @param {(i: number) => Promise<unknown>} task */
async function pool(n, task) {
  let next = 0
  const started = performance.now()
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < n) await task(next++)
    }),
  )
  return n / ((performance.now() - started) / 1000)
}

const MB = 1024 * 1024
const stores = {
  database: {},
  s3: {
    FILES_STORAGE: 's3',
    FILES_S3_ENDPOINT: `http://127.0.0.1:${s3Port}`,
    FILES_S3_BUCKET: 'portico-files',
    FILES_S3_ACCESS_KEY_ID: 'S3RVER',
    FILES_S3_SECRET_ACCESS_KEY: 'S3RVER',
  },
}
/** @type {string[]} */
const lines = []
for (const [name, env] of Object.entries(stores)) {
  const { url, token, child } = await startStoreTarget(name, env)
  const auth = { authorization: `Bearer ${token}` }
  const pid = /** @type {number} */ (child.pid)
  // Warm both paths once.
  await upload(`${url}/bench/sink`, smallBytes, {})
  await upload(`${url}/api/files/warm.bin`, smallBytes, auth)

  // Many small files at 16 in flight, against the bare sink and source.
  console.error(`${name}: small files, bare route then stored…`)
  const bareUp = await pool(smallCount, () => upload(`${url}/bench/sink`, smallBytes, {}))
  /** @type {string[]} */
  const names = []
  const filesUp = await pool(smallCount, async (i) => {
    const answer = await upload(`${url}/api/files/f${i}.bin`, smallBytes, auth)
    if (answer.status !== 201) throw new Error(`upload answered ${answer.status}: ${answer.body}`)
    names.push(JSON.parse(answer.body).name)
  })
  const bareDown = await pool(smallCount, () => download(`${url}/bench/source/${smallBytes}`))
  const filesDown = await pool(smallCount, (i) => download(`${url}/api/files/${names[i]}`))

  // One big file, alone, with the server's memory watched.
  console.error(`${name}: one big file, bare route…`)
  const bareBig = await watched(pid, () => upload(`${url}/bench/sink`, bigBytes, {}))
  console.error(`${name}: one big file, stored…`)
  const big = await watched(pid, () => upload(`${url}/api/files/big.bin`, bigBytes, auth))
  if (big.result.status !== 201)
    throw new Error(`big upload answered ${big.result.status}: ${big.result.body}`)
  const bigName = JSON.parse(big.result.body).name
  console.error(`${name}: one big file, bare download…`)
  const bareBigDown = await watched(pid, () => download(`${url}/bench/source/${bigBytes}`))
  console.error(`${name}: one big file, stored download…`)
  const bigDown = await watched(pid, () => download(`${url}/api/files/${bigName}`))
  if (/** @type {{ size: number }} */ (bigDown.result).size !== bigBytes)
    throw new Error('big download came back short')

  const ratio = (/** @type {number} */ a, /** @type {number} */ b) => (a / b).toFixed(3)
  lines.push(
    `${name.padEnd(8)} ${String(smallBytes / 1024)} KB files @${concurrency}: upload ${filesUp.toFixed(0)}/s (${ratio(filesUp, bareUp)} of bare ${bareUp.toFixed(0)}/s), download ${filesDown.toFixed(0)}/s (${ratio(filesDown, bareDown)} of bare ${bareDown.toFixed(0)}/s)`,
    `${''.padEnd(8)} ${bigBytes / MB} MB file: upload ${(bigBytes / MB / big.seconds).toFixed(0)} MB/s (${ratio(bareBig.seconds, big.seconds)} of bare), download ${(bigBytes / MB / bigDown.seconds).toFixed(0)} MB/s (${ratio(bareBigDown.seconds, bigDown.seconds)} of bare); server memory grew ${(big.growth / MB).toFixed(0)} MB uploading, ${(bigDown.growth / MB).toFixed(0)} MB downloading (bare: ${(bareBig.growth / MB).toFixed(0)} / ${(bareBigDown.growth / MB).toFixed(0)} MB)`,
  )
  child.kill('SIGTERM')
  await new Promise((resolve) => child.once('exit', resolve))
}
await s3.close()
console.log(
  `\nbench:files (${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'}; ${os.cpus().length} cores; load ${(os.loadavg()[0] ?? 0).toFixed(2)})`,
)
for (const line of lines) console.log(line)
