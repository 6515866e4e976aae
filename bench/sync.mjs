// Contract-event sync: backfill speed from anvil as a ratio to a plain viem `getLogs` loop over
// the same blocks in the same run (target ≥ 0.8); the server's start on a fresh DATA_DIR (time
// to its first health answer, target < 1 s) and its peak memory through the backfill (target
// < 300 MB); the delay from a mined block to the live-query event of its row over a WebSocket
// node at the default pollMs (p50 < 100 ms, p99 < 200 ms).
//   node --conditions=source --import tsx bench/sync.mjs   (npm run bench:sync)
//   DATABASE_URL=postgres://…   on PostgreSQL (a fresh database) instead of PGlite
//   BENCH_SYNC_EVENTS=100000 (default)
//   BENCH_SYNC_SOURCE=1   runs the server from its sources through tsx instead of the build
//   BENCH_SYNC_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof'   node options for the server alone
// The server is built first (as installed: with its embedded database template). Only
// 127.0.0.1; stops its anvil and server itself.
import { benchProcess } from './bench-process.mjs'
import { execFileSync, spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import pg from 'pg'
import WebSocket from 'ws'
import {
  createPublicClient,
  createTestClient,
  createWalletClient,
  getAddress,
  http,
  publicActions,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { foundry } from 'viem/chains'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const events = Number(process.env.BENCH_SYNC_EVENTS ?? 100_000)
const perTransaction = 5_000
const samples = 50
const key = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80'
const to = getAddress('0x00000000000000000000000000000000000000be')

const { dataDir, children } = benchProcess('bench:sync', 8)

/**
 * Starts a process and resolves once its output matches `ready`.
 * @param {[string, ...string[]]} command @param {Record<string, string>} env @param {RegExp} ready
 * @returns {Promise<{ child: import('node:child_process').ChildProcess, match: RegExpExecArray }>}
 */
function start(command, env, ready) {
  /** @type {import('node:child_process').ChildProcessByStdio<null, import('node:stream').Readable, null>} */
  const child = spawn(command[0], command.slice(1), {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  children.push(child)
  return new Promise((resolve, reject) => {
    let output = ''
    child.stdout.on('data', (/** @type {Buffer} */ chunk) => {
      output += chunk
      const match = ready.exec(output)
      if (match) resolve({ child, match })
    })
    child.once('exit', (/** @type {number | null} */ code) =>
      reject(new Error(`${command[0]} exited early (code ${code})`)),
    )
  })
}

process.on('unhandledRejection', (error) => {
  console.error(error)
  process.exit(1)
})

const { emitterAbi, emitterBytecode } = await import('../test-kit/src/emitter.ts').catch(
  async () => {
    throw new Error('run with: node --import tsx bench/sync.mjs (npm run bench:sync does)')
  },
)

const port = 20_000 + Math.floor(Math.random() * 20_000)
await start(
  [
    path.join(root, 'node_modules/.bin/anvil'),
    '--host',
    '127.0.0.1',
    '--port',
    String(port),
    '--gas-limit',
    '100000000',
  ],
  {},
  /Listening on/,
)
const anvilUrl = `http://127.0.0.1:${port}`
const wallet = createWalletClient({
  account: privateKeyToAccount(key),
  chain: foundry,
  transport: http(anvilUrl),
}).extend(publicActions)
const testClient = createTestClient({ mode: 'anvil', chain: foundry, transport: http(anvilUrl) })
const deployed = await wallet.waitForTransactionReceipt({
  hash: await wallet.deployContract({ abi: emitterAbi, bytecode: emitterBytecode }),
})
const address = getAddress(/** @type {string} */ (deployed.contractAddress))
const startBlock = deployed.blockNumber
console.log(`minting ${events} events…`)
for (let made = 0; made < events; made += perTransaction) {
  const hash = await wallet.writeContract({
    address,
    abi: emitterAbi,
    functionName: 'mintMany',
    args: [to, BigInt(Math.min(perTransaction, events - made)), BigInt(made)],
    gas: 90_000_000n,
  })
  await wallet.waitForTransactionReceipt({ hash })
  await testClient.mine({ blocks: 100 })
}
// Not viem's cached block number (it may predate the last mint).
const head = await wallet.getBlockNumber({ cacheTime: 0 })

// Baseline: a plain viem loop reading (and decoding) the same logs, 200 blocks (two mints of
// 5000 events, about 6 MB) per call: viem refuses answers over 10 MB.
const plain = createPublicClient({ transport: http(anvilUrl) })
let read = 0
const plainStarted = performance.now()
for (let from = startBlock; from <= head; from += 200n) {
  const toBlock = from + 199n > head ? head : from + 199n
  read += (
    await plain.getLogs({
      address,
      events: emitterAbi.filter((i) => i.type === 'event'),
      fromBlock: from,
      toBlock,
      strict: true,
    })
  ).length
}
const plainSeconds = (performance.now() - plainStarted) / 1000
if (read !== events) throw new Error(`the plain loop read ${read} events, not ${events}`)

// The sync, in a real server process, on a fresh database (progress is kept by sync name).
let databaseUrl = process.env.DATABASE_URL
if (databaseUrl) {
  const admin = new pg.Client({ connectionString: databaseUrl })
  await admin.connect()
  const name = `portico_bench_sync_${Date.now()}`
  await admin.query(`create database ${name}`)
  await admin.end()
  databaseUrl = databaseUrl.replace(/\/[^/?]*(\?|$)/, `/${name}$1`)
}
const fromSource = process.env.BENCH_SYNC_SOURCE === '1'
// The site's module, as a site writes it (plain JavaScript, its ABI inline), outside the project.
const siteModule = path.join(dataDir, 'functions.mjs')
fs.writeFileSync(
  siteModule,
  `export default function setup({ defineSync }) {
  defineSync({
    name: 'emitter',
    chainId: 31337,
    address: process.env.SYNC_ADDRESS,
    abi: ${JSON.stringify(emitterAbi)},
    className: 'Activity',
    startBlock: Number(process.env.SYNC_START_BLOCK),
    confirmations: 1,
  })
}
`,
)
if (!fromSource) {
  console.log('building the server (with its embedded database template)…')
  execFileSync(process.execPath, ['build.mjs'], {
    cwd: path.join(root, 'packages/server'),
    stdio: ['ignore', 'ignore', 'inherit'],
  })
}
const env = {
  ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  HOST: '127.0.0.1',
  PORT: '0',
  LOG_LEVEL: 'warn',
  DATA_DIR: path.join(dataDir, 'data'),
  FUNCTIONS_MODULE: siteModule,
  SYNC_ADDRESS: address,
  SYNC_START_BLOCK: String(startBlock),
  RPC_URL_31337: anvilUrl,
  RPC_WS_URL_31337: anvilUrl.replace('http', 'ws'),
  ALLOWED_CHAIN_IDS: '31337',
}
const nodeArgs = (process.env.BENCH_SYNC_NODE_ARGS ?? '').split(' ').filter(Boolean)
const spawned = performance.now()
// The server opens its port first and answers health as "starting" while it loads.
const { child: server, match } = await start(
  fromSource
    ? [
        process.execPath,
        ...nodeArgs,
        '--conditions=source',
        '--import',
        'tsx',
        path.join(root, 'packages/server/src/cli.ts'),
      ]
    : [process.execPath, ...nodeArgs, path.join(root, 'packages/server/dist/cli.js')],
  env,
  /(?:starting|running) at (http:\/\/\S+)/,
)
const url = /** @type {string} */ (match[1])
while (
  !(await fetch(`${url}/api/health`).then(
    (r) => r.ok,
    () => false,
  ))
) {
  await new Promise((resolve) => setTimeout(resolve, 5))
}
const firstHealthMs = performance.now() - spawned
const health = async () => await (await fetch(`${url}/api/health`)).json()
// The backfill is timed from the moment the server is ready and its sync runs (its start is
// measured above), and also from the spawn.
while (!(await health()).syncs?.length) await new Promise((resolve) => setTimeout(resolve, 5))
const syncStarted = performance.now()
const readyMs = syncStarted - spawned
/** The server process's resident memory now and its peak so far (Linux), in MB. */
const memoryMb = () => {
  const status = fs.readFileSync(`/proc/${server.pid}/status`, 'utf8')
  const kb = (/** @type {string} */ field) =>
    Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0) / 1024
  return { now: kb('VmRSS'), peak: kb('VmHWM') }
}
const readyMb = memoryMb()
/** CPU seconds the server process has used so far (user and system, Linux). */
const cpuSeconds = () => {
  const fields =
    fs.readFileSync(`/proc/${server.pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? []
  return (Number(fields[11]) + Number(fields[12])) / 100
}
const readyCpu = cpuSeconds()
while (((await health()).syncs?.[0]?.rows ?? 0) < events)
  await new Promise((resolve) => setTimeout(resolve, 50))
const syncSeconds = (performance.now() - syncStarted) / 1000
const spawnToRowsSeconds = (performance.now() - spawned) / 1000
const backfillPeakMb = memoryMb().peak
// Beside the wall time (which the machine's load moves), the server's own CPU per event.
const backfillCpuUs = ((cpuSeconds() - readyCpu) / events) * 1e6

// Delay from a mined block to the live event of its row.
const socket = new WebSocket(`${url.replace('http', 'ws')}/api/live`)
await new Promise((resolve) => socket.once('open', resolve))
/** @type {Map<string, number>} */
const arrived = new Map()
socket.on('message', (raw) => {
  const message = JSON.parse(String(raw))
  if (message.op === 'create') arrived.set(message.object.data.value, performance.now())
})
socket.send(JSON.stringify({ op: 'subscribe', requestId: 1, className: 'Activity', where: { to } }))
await new Promise((resolve) => setTimeout(resolve, 200))
/** @type {number[]} */
const delays = []
for (let i = 0; i < samples; i++) {
  const value = 10n ** 12n + BigInt(i)
  const hash = await wallet.writeContract({
    address,
    abi: emitterAbi,
    functionName: 'mint',
    args: [to, value],
  })
  await wallet.waitForTransactionReceipt({ hash, pollingInterval: 5 })
  const mined = performance.now()
  while (!arrived.has(String(value))) await new Promise((resolve) => setTimeout(resolve, 2))
  delays.push(/** @type {number} */ (arrived.get(String(value))) - mined)
}
socket.close()
delays.sort((a, b) => a - b)
const percentile = (/** @type {number} */ p) =>
  /** @type {number} */ (delays[Math.min(delays.length - 1, Math.floor((p / 100) * delays.length))])

const plainRate = read / plainSeconds
const syncRate = events / syncSeconds
const ratio = syncRate / plainRate
console.log(
  `\nbench:sync (${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'}; ${events} events over ${head - startBlock + 1n} blocks; load ${(os.loadavg()[0] ?? 0).toFixed(2)})`,
)
console.log(
  `plain viem getLogs loop        ${plainRate.toFixed(0).padStart(8)} events/s   ratio 1.000`,
)
console.log(
  `sync backfill (stored rows)    ${syncRate.toFixed(0).padStart(8)} events/s   ratio ${ratio.toFixed(3)}${ratio >= 0.8 ? '  ≥ 0.8 ok' : '  < 0.8 BELOW TARGET'}`,
)
const p50 = percentile(50)
const p99 = percentile(99)
console.log(
  `  server CPU through the backfill ${backfillCpuUs.toFixed(0)} µs per event (user and system)`,
)
console.log(
  `  from the spawn to the last row ${spawnToRowsSeconds.toFixed(1)} s (the server's start included)`,
)
console.log(
  `start on a fresh ${databaseUrl ? 'database' : 'DATA_DIR'}       first health answer after ${firstHealthMs.toFixed(0)} ms${firstHealthMs < 1000 ? '  < 1 s ok' : '  ≥ 1 s ABOVE TARGET'} (${fromSource ? 'sources through tsx' : 'built server'}); ready (routes, sync running) after ${readyMs.toFixed(0)} ms`,
)
console.log(
  `server peak memory             ${backfillPeakMb.toFixed(0)} MB through the backfill${backfillPeakMb < 300 ? '  < 300 MB ok' : '  ≥ 300 MB ABOVE TARGET'} (${readyMb.now.toFixed(0)} MB when its sync started, peak ${readyMb.peak.toFixed(0)} MB by then)`,
)
console.log(
  `mined block → live event       p50 ${p50.toFixed(0)} ms, p99 ${p99.toFixed(0)} ms (new heads over WebSocket, pollMs 2000)${p50 < 100 && p99 < 200 ? '  ok' : '  ABOVE TARGET'}`,
)
if (nodeArgs.length) {
  // Profiles are written as the server exits: wait for it.
  server.kill('SIGTERM')
  await new Promise((resolve) => server.once('exit', resolve))
}
process.exitCode =
  ratio >= 0.8 && firstHealthMs < 1000 && backfillPeakMb < 300 && p50 < 100 && p99 < 200 ? 0 : 1
process.exit()
