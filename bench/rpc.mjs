// RPC gateway benchmark: eth_blockNumber, and eth_call with each call different, straight to an
// anvil node versus through Portico's gateway (POST /api/rpc/:chainId) to the same node, in the
// same run. Prints requests/s and median latency of both, the throughput ratios (target ≥ 0.7) and
// the added median latency (target < 1 ms). For scale it also measures, in the same rounds, a bare
// Node HTTP server that answers at once (bench/bare-node.mjs): what no Node gateway can beat here,
// and, when Debian's nginx is installed, nginx's proxy_pass to the same node: what a proxy
// outside Node does on the same machine. Then it compares the gateway's upstream client with
// undici's Pool (bench/rpc-undici-client.mjs) in a second gateway, back to back in each round,
// with each server's CPU per call. The goal figure is the gateway ÷ nginx for eth_blockNumber and
// eth_call, the two measured in turns (which goes first alternates by round). BENCH_RPC_NGINX_ONLY=1
// skips the undici and page-load parts. Only 127.0.0.1; bounded in count and time; stops itself.
import { execFileSync, spawn } from 'node:child_process'
import fs from 'node:fs'
import http from 'node:http'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { send } from './http.mjs'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const anvilBin = path.join(root, 'node_modules/.bin/anvil')
const cli = path.join(root, 'packages/server/src/cli.ts')
const chainId = 31337
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 16)
const count = Number(process.env.BENCH_REQUESTS ?? 6_000)
const latencyCount = 1_000
const rounds = Number(process.env.BENCH_ROUNDS ?? 5)
const warmUpRounds = 2
const phaseLimitMs = 30_000
const metricsToken = 'bench-metrics'
const nginxOnly = process.env.BENCH_RPC_NGINX_ONLY === '1'

/** @type {import('node:child_process').ChildProcess[]} */
const children = []
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portico-bench-rpc-'))
function cleanup() {
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM')
  fs.rmSync(dataDir, { recursive: true, force: true })
}
process.on('exit', cleanup)
process.on('SIGINT', () => process.exit(130))
// Never run forever, whatever happens.
setTimeout(() => {
  console.error('bench:rpc took longer than 10 minutes, stopping')
  process.exit(1)
}, 600_000).unref()

/** @returns {Promise<number>} */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = /** @type {net.AddressInfo} */ (server.address())
      server.close(() => resolve(address.port))
    })
  })
}

const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency })
const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] })

/**
 * One JSON-RPC POST; resolves with the status, rejects on network errors.
 * @param {string} url
 * @param {Record<string, string>} headers
 * @param {string} [payload]
 */
const post = (url, headers, payload = body) =>
  send(url, { agent, method: 'POST', headers, body: payload })

/**
 * The `index`th eth_call of a phase: the identity precompile asked to echo a different word each
 * time, so no two calls in flight are identical (the gateway would send those upstream once).
 * @param {number} index
 */
const ethCall = (index) =>
  JSON.stringify({
    jsonrpc: '2.0',
    id: index,
    method: 'eth_call',
    params: [
      {
        to: '0x0000000000000000000000000000000000000004',
        data: `0x${index.toString(16).padStart(64, '0')}`,
      },
      'latest',
    ],
  })

/**
 * One JSON-RPC call's result (for the set-up), straight to a node.
 * @param {string} url
 * @param {string} method
 * @param {unknown[]} params
 * @returns {Promise<any>}
 */
async function rpc(url, method, params) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  })
  return /** @type {{ result: unknown }} */ (await response.json()).result
}

/**
 * @param {string} url
 * @param {Record<string, string>} headers
 */
async function waitForRpc(url, headers) {
  const deadline = Date.now() + 30_000
  while (Date.now() < deadline) {
    if ((await post(url, headers).catch(() => 0)) === 200) return
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`${url} did not answer within 30 s`)
}

/**
 * `n` requests with `parallel` in flight; returns requests/s and the median latency (ms).
 * @param {string} url
 * @param {Record<string, string>} headers
 * @param {number} n
 * @param {number} parallel
 * @param {(index: number) => string} [payload] the body of each request (eth_blockNumber)
 */
async function measure(url, headers, n, parallel, payload) {
  const latencies = new Float64Array(n)
  let next = 0
  let failures = 0
  const started = performance.now()
  const deadline = started + phaseLimitMs
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < n && performance.now() < deadline) {
        const index = next++
        const t0 = performance.now()
        if ((await post(url, headers, payload?.(index))) !== 200) failures++
        latencies[index] = performance.now() - t0
      }
    }),
  )
  const done = Math.min(next, n)
  const seconds = (performance.now() - started) / 1000
  if (failures) throw new Error(`${failures} of ${done} requests to ${url} failed`)
  const sorted = Array.from(latencies.subarray(0, done)).sort((a, b) => a - b)
  return { perSecond: done / seconds, median: sorted[Math.floor(done / 2)] ?? Number.NaN }
}

/**
 * CPU time (ms) used so far by a process and its live children, from /proc (Linux); NaN elsewhere.
 * (`node_modules/.bin/anvil` is a Node wrapper around the real binary, its child.)
 * @param {number | undefined} pid
 * @returns {number}
 */
function cpuMs(pid) {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? []
    const own = ((Number(fields[11]) + Number(fields[12])) * 1000) / 100 // utime + stime in 10 ms ticks
    const children = fs
      .readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
      .trim()
      .split(/\s+/)
    return own + children.filter(Boolean).reduce((sum, child) => sum + cpuMs(Number(child)), 0)
  } catch {
    return Number.NaN
  }
}

/**
 * Debian's nginx (its own prefix and config in the data directory, one worker, no logs) proxying
 * to the node with keep-alive; resolves with its URL. Stopped with the other children.
 * @param {number} anvilPort
 */
async function startNginx(anvilPort) {
  const port = await freePort()
  const prefix = path.join(dataDir, 'nginx')
  fs.mkdirSync(prefix, { recursive: true })
  const config = path.join(prefix, 'nginx.conf')
  fs.writeFileSync(
    config,
    `daemon off;
worker_processes 1;
pid ${prefix}/nginx.pid;
error_log ${prefix}/error.log;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${prefix};
  proxy_temp_path ${prefix};
  upstream node { server 127.0.0.1:${anvilPort}; keepalive 64; }
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://node;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
    }
  }
}
`,
  )
  children.push(spawn('/usr/sbin/nginx', ['-p', prefix, '-c', config], { stdio: 'ignore' }))
  return `http://127.0.0.1:${port}/`
}

/** @param {number[]} values */
const median = (values) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN

/**
 * A Portico server of its own data directory (`name`) serving the chain from `anvilUrl`, with an
 * API key made by the real CLI before the server takes the directory.
 * @param {string} anvilUrl
 * @param {string} name
 * @param {string[]} [imports] modules the server process loads first, after tsx
 */
async function startGateway(anvilUrl, name, imports = []) {
  const port = await freePort()
  const env = {
    ...process.env,
    HOST: '127.0.0.1',
    PORT: String(port),
    DATA_DIR: path.join(dataDir, name),
    DATABASE_URL: '',
    LOG_LEVEL: 'warn',
    [`RPC_URL_${chainId}`]: anvilUrl,
    RPC_RATE_LIMIT_PER_KEY: '1000000000',
    RPC_RATE_LIMIT_PER_IP: '1000000000',
    METRICS_TOKEN: metricsToken,
  }
  const created = execFileSync(
    process.execPath,
    ['--conditions=source', '--import', 'tsx', cli, 'api-key', 'create', '--label', 'bench'],
    { cwd: root, env, encoding: 'utf8' },
  )
  const key = created.trim().split('\n').at(-1) ?? ''
  const serverArgs = [
    ...(process.env.BENCH_SERVER_FLAGS?.split(' ').filter(Boolean) ?? []),
    '--conditions=source',
    '--import',
    'tsx',
    ...imports.flatMap((module) => ['--import', module]),
    cli,
  ]
  const child = spawn(process.execPath, [...serverArgs, 'serve'], {
    cwd: root,
    env,
    stdio: 'inherit',
  })
  children.push(child)
  return {
    port,
    child,
    url: `http://127.0.0.1:${port}/api/rpc/${chainId}`,
    headers: { 'x-api-key': key },
  }
}

async function main() {
  const anvilPort = await freePort()
  const anvilUrl = `http://127.0.0.1:${anvilPort}`
  const anvil = spawn(anvilBin, ['--host', '127.0.0.1', '--port', String(anvilPort), '--silent'], {
    stdio: 'ignore',
  })
  children.push(anvil)

  const gatewayServer = await startGateway(anvilUrl, 'gateway')
  const { port: serverPort, child: server } = gatewayServer
  // The same gateway with undici's Pool as its upstream client, measured against it.
  const undiciServer = nginxOnly
    ? undefined
    : await startGateway(anvilUrl, 'undici', [path.join(root, 'bench/rpc-undici-hook.mjs')])

  const barePort = await freePort()
  const bare = spawn(process.execPath, [path.join(root, 'bench/bare-node.mjs'), String(barePort)], {
    stdio: 'ignore',
  })
  children.push(bare)
  const bareUrl = `http://127.0.0.1:${barePort}/`
  const nginxUrl = fs.existsSync('/usr/sbin/nginx') ? await startNginx(anvilPort) : undefined
  const gatewayUrl = gatewayServer.url
  const keyHeader = gatewayServer.headers
  const undiciUrl = undiciServer?.url ?? ''
  const undiciHeader = undiciServer?.headers ?? {}

  await waitForRpc(anvilUrl, {})
  await waitForRpc(gatewayUrl, keyHeader)
  if (undiciServer) await waitForRpc(undiciUrl, undiciHeader)
  await waitForRpc(bareUrl, {})
  if (nginxUrl) await waitForRpc(nginxUrl, {})
  // Warm up every path (JIT, keep-alive sockets) before measuring.
  await measure(anvilUrl, {}, 2_000, concurrency)
  await measure(gatewayUrl, keyHeader, 2_000, concurrency)
  await measure(bareUrl, {}, 2_000, concurrency)
  if (nginxUrl) await measure(nginxUrl, {}, 2_000, concurrency)
  await measure(anvilUrl, {}, 2_000, concurrency, ethCall)
  await measure(gatewayUrl, keyHeader, 2_000, concurrency, ethCall)
  if (nginxUrl) await measure(nginxUrl, {}, 2_000, concurrency, ethCall)

  /** The server's counters that explain the figures: cache lookups and upstream exchanges. */
  const counters = async () => {
    const response = await fetch(`http://127.0.0.1:${serverPort}/api/metrics`, {
      headers: { authorization: `Bearer ${metricsToken}` },
    })
    const text = await response.text()
    /** @param {string} name @param {string} outcome */
    const value = (name, outcome) =>
      Number(
        text.match(
          new RegExp(`${name}\\{chain="${chainId}",outcome="${outcome}"\\} (\\d+)`),
        )?.[1] ?? 0,
      )
    return {
      hit: value('portico_rpc_cache_lookups_total', 'hit'),
      miss: value('portico_rpc_cache_lookups_total', 'miss'),
      exchanges: value('portico_rpc_upstream_attempt_seconds_count', 'ok'),
    }
  }

  /** @type {Record<'direct' | 'gateway' | 'bare' | 'nginx' | 'directCall' | 'gatewayCall' | 'nginxCall' | 'directMedian' | 'gatewayMedian', number[]>} */
  const results = {
    direct: [],
    gateway: [],
    bare: [],
    nginx: [],
    directCall: [],
    gatewayCall: [],
    nginxCall: [],
    directMedian: [],
    gatewayMedian: [],
  }
  // CPU time per request of each process, to show where the time goes whatever else runs.
  const cpu = {
    direct: { bench: 0, anvil: 0, server: 0 },
    gateway: { bench: 0, anvil: 0, server: 0 },
  }
  /**
   * @param {'direct' | 'gateway'} path
   * @param {() => Promise<{ perSecond: number }>} run
   */
  const accounted = async (path, run) => {
    const before = [process.cpuUsage(), cpuMs(anvil.pid), cpuMs(server.pid)]
    const result = await run()
    const bench = process.cpuUsage(/** @type {NodeJS.CpuUsage} */ (before[0]))
    cpu[path].bench += (bench.user + bench.system) / 1000
    cpu[path].anvil += cpuMs(anvil.pid) - /** @type {number} */ (before[1])
    cpu[path].server += cpuMs(server.pid) - /** @type {number} */ (before[2])
    return result.perSecond
  }
  let exchanges = 0
  /**
   * Two phases back to back, the first of them alternating by round; their results in the order given.
   * @param {number} round
   * @param {() => Promise<number>} first
   * @param {() => Promise<number>} second
   */
  /**
   * @param {number} round
   * @param {() => Promise<number>} first
   * @param {() => Promise<number>} second
   * @returns {Promise<[number, number]>}
   */
  const inTurns = async (round, first, second) => {
    if (round % 2 === 0) {
      const a = await first()
      return [a, await second()]
    }
    const b = await second()
    return [await first(), b]
  }
  // Rounds -2 and -1 are the warm-up, the measured rounds' exact sequence, and are not counted.
  // The first passes through this sequence ran at half to two thirds of the later rounds' speed,
  // in the bench and the server alike (CPU per request up to twice the later rounds' in both
  // processes), however many requests the warm-up had sent before them (up to 36,000 through the
  // gateway): `--trace-deopt` shows both processes re-optimising the HTTP code every phase shares
  // once the other phases (and the metrics fetch) have run. Counting those passes measured the
  // JIT, not the gateway. Alternate the two paths so load from elsewhere hits both alike.
  for (let round = -warmUpRounds; round < rounds; round++) {
    if (round === 0) {
      for (const list of Object.values(results)) list.length = 0
      for (const path of /** @type {const} */ (['direct', 'gateway'])) {
        cpu[path] = { bench: 0, anvil: 0, server: 0 }
      }
      exchanges = 0
    }
    results.direct.push(await accounted('direct', () => measure(anvilUrl, {}, count, concurrency)))
    const exchangesBefore = (await counters()).exchanges
    const [gateway, nginx] = await inTurns(
      round,
      () => accounted('gateway', () => measure(gatewayUrl, keyHeader, count, concurrency)),
      async () => (nginxUrl ? (await measure(nginxUrl, {}, count, concurrency)).perSecond : NaN),
    )
    results.gateway.push(gateway)
    if (nginxUrl) results.nginx.push(nginx)
    exchanges += (await counters()).exchanges - exchangesBefore
    results.bare.push((await measure(bareUrl, {}, count, concurrency)).perSecond)
    results.directCall.push((await measure(anvilUrl, {}, count, concurrency, ethCall)).perSecond)
    const [gatewayCall, nginxCall] = await inTurns(
      round,
      async () => (await measure(gatewayUrl, keyHeader, count, concurrency, ethCall)).perSecond,
      async () =>
        nginxUrl ? (await measure(nginxUrl, {}, count, concurrency, ethCall)).perSecond : NaN,
    )
    results.gatewayCall.push(gatewayCall)
    if (nginxUrl) results.nginxCall.push(nginxCall)
    results.directMedian.push((await measure(anvilUrl, {}, latencyCount, 1)).median)
    results.gatewayMedian.push((await measure(gatewayUrl, keyHeader, latencyCount, 1)).median)
  }

  // The goal: the gateway ÷ nginx's proxy_pass to the same node, per round (the two in turns).
  if (nginxUrl) {
    for (const [label, through, proxied] of /** @type {const} */ ([
      ['eth_blockNumber', results.gateway, results.nginx],
      ['eth_call', results.gatewayCall, results.nginxCall],
    ])) {
      const perRound = through.map((g, i) => g / (proxied[i] ?? Number.NaN))
      const ratio = median(perRound)
      console.log(
        `gateway ÷ nginx  ${label.padEnd(15)} ${ratio.toFixed(2)} (target ≥ 0.90) ${ratio >= 0.9 ? 'OK' : 'BELOW TARGET'}; gateway ${median(through).toFixed(0)} req/s, nginx ${median(proxied).toFixed(0)} req/s; per round: ${perRound.map((r) => r.toFixed(2)).join(' ')} (min ${Math.min(...perRound).toFixed(2)}, max ${Math.max(...perRound).toFixed(2)})`,
      )
    }
  } else console.log('gateway ÷ nginx: not measured (no /usr/sbin/nginx)')
  if (!undiciServer) return

  // The gateway's upstream client: the hand-written one against undici's Pool, in two gateways
  // otherwise the same, back to back in each round (in turns first), with each server's CPU.
  /** @type {Record<'call' | 'blockNumber', Record<'own' | 'undici', { perSecond: number[], cpuMs: number }>>} */
  const clients = {
    call: { own: { perSecond: [], cpuMs: 0 }, undici: { perSecond: [], cpuMs: 0 } },
    blockNumber: { own: { perSecond: [], cpuMs: 0 }, undici: { perSecond: [], cpuMs: 0 } },
  }
  const gateways = {
    own: { url: gatewayUrl, headers: keyHeader, pid: server.pid },
    undici: { url: undiciUrl, headers: undiciHeader, pid: undiciServer.child.pid },
  }
  for (let round = -1; round < rounds; round++) {
    for (const method of /** @type {const} */ (['call', 'blockNumber'])) {
      /** @type {('own' | 'undici')[]} */
      const order = round % 2 === 0 ? ['own', 'undici'] : ['undici', 'own']
      for (const name of order) {
        const { url, headers, pid } = gateways[name]
        const cpuBefore = cpuMs(pid)
        const result = await measure(
          url,
          headers,
          count,
          concurrency,
          method === 'call' ? ethCall : undefined,
        )
        if (round < 0) continue // warm-up
        clients[method][name].perSecond.push(result.perSecond)
        clients[method][name].cpuMs += cpuMs(pid) - cpuBefore
      }
    }
  }

  // A dapp's page load, call by call as a site without batching sends them: the chain id, the
  // head, two balances, three contract reads and the receipt of a transaction mined 64 blocks
  // ago. What never changes (the chain id, the final receipt) comes from the gateway's cache.
  const from = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266' // anvil's first account
  const txHash = await rpc(anvilUrl, 'eth_sendTransaction', [
    { from, to: '0x000000000000000000000000000000000000bEEF', value: '0x1' },
  ])
  await rpc(anvilUrl, 'anvil_mine', ['0x41'])
  const pageCalls = [
    ['eth_chainId', []],
    ['eth_blockNumber', []],
    ['eth_getBalance', [from, 'latest']],
    ['eth_getBalance', ['0x000000000000000000000000000000000000bEEF', 'latest']],
    ['eth_call', [{ to: '0x0000000000000000000000000000000000000004', data: '0x1234' }, 'latest']],
    ['eth_call', [{ to: '0x0000000000000000000000000000000000000002', data: '0x' }, 'latest']],
    ['eth_call', [{ to: from, data: '0x' }, 'latest']],
    ['eth_getTransactionReceipt', [txHash]],
  ].map(([method, params], id) => JSON.stringify({ jsonrpc: '2.0', id, method, params }))
  /**
   * @param {string} url
   * @param {Record<string, string>} headers
   */
  const pageLoads = async (url, headers) => {
    const loads = Math.ceil(count / pageCalls.length)
    let next = 0
    const started = performance.now()
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < loads) {
          next++
          for (const call of pageCalls) {
            if ((await post(url, headers, call)) !== 200) throw new Error(`${url} refused a call`)
          }
        }
      }),
    )
    return (loads * pageCalls.length) / ((performance.now() - started) / 1000)
  }
  await pageLoads(gatewayUrl, keyHeader) // warm: the cache fills, the gateway sees the head
  const cacheBefore = await counters()
  /** @type {number[]} */
  const pageDirect = []
  /** @type {number[]} */
  const pageGateway = []
  for (let round = 0; round < rounds; round++) {
    pageDirect.push(await pageLoads(anvilUrl, {}))
    pageGateway.push(await pageLoads(gatewayUrl, keyHeader))
  }
  const cacheAfter = await counters()
  const pageCallsSent = rounds * Math.ceil(count / pageCalls.length) * pageCalls.length
  const hits = cacheAfter.hit - cacheBefore.hit

  // Ratios and differences per round, then their median: load from elsewhere on the machine
  // drifts between rounds, and each round measures both paths back to back.
  const direct = median(results.direct)
  const gateway = median(results.gateway)
  const directMs = median(results.directMedian)
  const gatewayMs = median(results.gatewayMedian)
  const ratio = median(results.gateway.map((g, i) => g / (results.direct[i] ?? Number.NaN)))
  const added = median(
    results.gatewayMedian.map((g, i) => g - (results.directMedian[i] ?? Number.NaN)),
  )
  const bareRatio = median(results.bare.map((b, i) => b / (results.direct[i] ?? Number.NaN)))
  const perRound = results.gateway
    .map((g, i) => (g / (results.direct[i] ?? Number.NaN)).toFixed(2))
    .join(' ')
  console.log(
    `RPC gateway benchmark: eth_blockNumber, ${count} requests × ${rounds} rounds, ${concurrency} in flight`,
  )
  console.log(
    `  direct to anvil     ${direct.toFixed(0).padStart(7)} req/s   median ${directMs.toFixed(3)} ms (1 in flight)`,
  )
  console.log(
    `  through the gateway ${gateway.toFixed(0).padStart(7)} req/s   median ${gatewayMs.toFixed(3)} ms (1 in flight)`,
  )
  console.log(
    `  throughput ratio    ${ratio.toFixed(2)}  (target ≥ 0.70) ${ratio >= 0.7 ? 'OK' : 'BELOW TARGET'}; per round: ${perRound}`,
  )
  console.log(
    `  for scale           a bare Node HTTP server that answers at once: ${bareRatio.toFixed(2)} of direct (no Node gateway can pass it here); the gateway is ${(ratio / bareRatio).toFixed(2)} of it`,
  )
  if (nginxUrl) {
    const nginxRatio = median(results.nginx.map((n, i) => n / (results.direct[i] ?? Number.NaN)))
    console.log(
      `                      nginx's proxy_pass to the same node: ${nginxRatio.toFixed(2)} of direct (a proxy outside Node)`,
    )
  }
  /** @param {number[]} over @param {number[]} under */
  const ratioOf = (over, under) => median(over.map((o, i) => o / (under[i] ?? Number.NaN)))
  const callRatio = ratioOf(results.gatewayCall, results.directCall)
  console.log(
    `  eth_call            direct ${median(results.directCall).toFixed(0)} req/s, through the gateway ${median(results.gatewayCall).toFixed(0)} req/s: ratio ${callRatio.toFixed(2)} (each call different, ${concurrency} in flight); per round: ${results.gatewayCall.map((g, i) => (g / (results.directCall[i] ?? Number.NaN)).toFixed(2)).join(' ')}`,
  )
  for (const [method, label] of /** @type {const} */ ([
    ['call', 'eth_call'],
    ['blockNumber', 'eth_blockNumber'],
  ])) {
    const { own, undici } = clients[method]
    const perRound = own.perSecond.map((o, i) =>
      (o / (undici.perSecond[i] ?? Number.NaN)).toFixed(2),
    )
    console.log(
      `  upstream client     ${label}: hand-written ${median(own.perSecond).toFixed(0)} req/s, undici's Pool ${median(undici.perSecond).toFixed(0)} req/s: hand-written / undici ${ratioOf(own.perSecond, undici.perSecond).toFixed(2)} (per round: ${perRound.join(' ')}); server CPU per call ${((own.cpuMs * 1000) / (count * rounds)).toFixed(0)} µs and ${((undici.cpuMs * 1000) / (count * rounds)).toFixed(0)} µs`,
    )
  }
  /** @param {{ bench: number, anvil: number, server: number }} c */
  const perRequest = (c) =>
    `bench ${((c.bench * 1000) / (count * rounds)).toFixed(0)} µs, anvil ${((c.anvil * 1000) / (count * rounds)).toFixed(0)} µs, server ${((c.server * 1000) / (count * rounds)).toFixed(0)} µs`
  console.log(`  CPU per request     direct:  ${perRequest(cpu.direct)}`)
  console.log(`                      gateway: ${perRequest(cpu.gateway)}`)
  const gatewayCalls = rounds * count
  console.log(
    `  upstream exchanges  ${exchanges} for ${gatewayCalls} calls: ${(gatewayCalls / exchanges).toFixed(1)} calls each (identical calls in flight together go once)`,
  )
  console.log(
    `  added median        ${added.toFixed(3)} ms (target < 1 ms) ${added < 1 ? 'OK' : 'ABOVE TARGET'}`,
  )
  const pageRatio = median(pageGateway.map((g, i) => g / (pageDirect[i] ?? Number.NaN)))
  console.log(
    `A dapp's page load (${pageCalls.length} calls, one request each), ${concurrency} in flight`,
  )
  console.log(
    `  direct ${median(pageDirect).toFixed(0)} calls/s, through the gateway ${median(pageGateway).toFixed(0)} calls/s: ratio ${pageRatio.toFixed(2)}`,
  )
  console.log(
    `  cache hit ratio     ${(hits / pageCallsSent).toFixed(3)} of all calls (${hits} of ${pageCallsSent}: the chain id and the final receipt)`,
  )
}

try {
  await main()
} finally {
  agent.destroy()
  cleanup()
}
process.exit(0)
