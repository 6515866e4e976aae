// Moralis v1's Web3 API through the real HTTP server, each function as a ratio to the least that
// answers the same on this machine in the same run: the index tables filled directly with
// BENCH_WEB3API_TRANSFERS (1,000,000) token transfers over BENCH_WEB3API_WALLETS (10,000)
// addresses, 100,000 NFT mints and the balances and holdings they imply (bench/address-fill.mjs),
// then, one call in flight, as moralis-v1 sends them (`POST /server/functions/<name>`, app id
// and chain in the body):
//   getNFTs of the busy wallet (its count and first page of 100)  ÷ the same two statements
//     straight to the database driver in the same process (no HTTP, no query builder);
//   getTokenBalances of the busy wallet                           ÷ its statement, the same way;
//   getNativeBalance                                              ÷ `eth_getBalance` through the
//     server's RPC gateway (`POST /api/rpc/31337`) to the same anvil.
// p50 and p99 of BENCH_ROUNDS (300) rounds, measured and anchor in turns.
//   npm run bench:web3api   (PGlite in a temp dir; DATABASE_URL=postgres://… for PostgreSQL: a
//   fresh database is made on it)
// Only 127.0.0.1; stops after 20 minutes at most; stops its anvil and server itself.
import { benchProcess } from './bench-process.mjs'
import { spawn } from 'node:child_process'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import pg from 'pg'
import { sql } from 'drizzle-orm'
import {
  BALANCES_SQL,
  busyWallet,
  driverOf,
  fillIndex,
  inTurns,
  memoryMb,
  NFT_COUNT_SQL,
  NFT_PAGE_SQL,
  percentile,
} from './address-fill.mjs'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const transfers = Number(process.env.BENCH_WEB3API_TRANSFERS ?? 1_000_000)
const wallets = Number(process.env.BENCH_WEB3API_WALLETS ?? 10_000)
const rounds = Number(process.env.BENCH_ROUNDS ?? 300)
const chainId = 31337
const databaseUrl = process.env.DATABASE_URL

const { dataDir, children } = benchProcess('bench:web3api', 20)
/** @type {(() => Promise<void>)[]} */
const closers = []

const { buildServer } = await import('../packages/server/src/app.ts').catch(() => {
  throw new Error(
    'run with: node --conditions=source --import tsx bench/web3api.mjs (npm run bench:web3api does)',
  )
})
const { loadConfig } = await import('../packages/server/src/config/server.ts')
const { openDatabase } = await import('../packages/server/src/db/client.ts')
const { createApiKey } = await import('../packages/server/src/rpc/api-keys.ts')

/** A fresh database: a temp PGlite folder, or a new database on the PostgreSQL server. */
async function freshDatabase() {
  if (!databaseUrl) return openDatabase({ kind: 'pglite', dir: dataDir })
  const admin = new pg.Client({ connectionString: databaseUrl })
  await admin.connect()
  const name = `portico_bench_web3api_${process.pid}`
  await admin.query(`drop database if exists ${name} with (force)`)
  await admin.query(`create database ${name}`)
  const url = databaseUrl.replace(/\/[^/?]*(\?|$)/, `/${name}$1`)
  const handle = await openDatabase({ kind: 'postgres', url })
  return {
    ...handle,
    close: async () => {
      await handle.close()
      await admin.query(`drop database if exists ${name} with (force)`)
      await admin.end()
    },
  }
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 })
/**
 * One JSON POST on a kept-alive connection.
 * @param {string} url @param {unknown} body @param {Record<string, string>} [headers]
 * @returns {Promise<{ status: number, json: any }>}
 */
function post(url, body, headers = {}) {
  return new Promise((resolve, reject) => {
    const request = http.request(
      url,
      { method: 'POST', agent, headers: { 'content-type': 'application/json', ...headers } },
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
    request.end(JSON.stringify(body))
  })
}

async function main() {
  const port = 20_000 + Math.floor(Math.random() * 20_000)
  const anvil = spawn(
    path.join(root, 'node_modules/.bin/anvil'),
    ['--host', '127.0.0.1', '--port', String(port)],
    { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] },
  )
  children.push(anvil)
  await new Promise((resolve, reject) => {
    let output = ''
    anvil.stdout.on('data', (chunk) => {
      output += chunk
      if (/Listening on/.test(output)) resolve(undefined)
    })
    anvil.once('exit', (code) => reject(new Error(`anvil exited early (code ${code})`)))
  })
  const anvilUrl = `http://127.0.0.1:${port}`

  const database = await freshDatabase()
  closers.push(() => database.close())
  const db = database.db
  const driver = driverOf(db)
  console.log(
    `filling the index tables: ${transfers.toLocaleString('en')} transfers over ${wallets.toLocaleString('en')} addresses…`,
  )
  const filled = await fillIndex(db, {
    chainId,
    transfers,
    wallets,
    log: (line) => console.log(line),
  })
  // The busy wallet indexed and caught up (its next block past the head), so the Web3 API reads
  // its rows and starts no indexing; the index polls rarely, to share nothing with the figures.
  await db.execute(
    sql.raw(`insert into indexed_addresses (chain_id, address, source, next_block)
      values (${chainId}, '${busyWallet}', 'watch', 1000000)`),
  )
  const config = loadConfig({
    DATA_DIR: path.join(dataDir, 'data'),
    LOG_LEVEL: 'error',
    HOST: '127.0.0.1',
    RPC_URL_31337: anvilUrl,
    ALLOWED_CHAIN_IDS: '31337',
    ADDRESS_INDEX_CHAINS: '31337',
    ADDRESS_INDEX_POLL_MS: '600000',
    WEB3API_CHAINS: 'eth:31337',
    WEB3API_RATE_LIMIT_PER_IP: '100000000',
    RPC_RATE_LIMIT_PER_IP: '100000000',
  })
  const app = await buildServer({ config, database, logger: false })
  await app.listen({ host: '127.0.0.1', port: 0 })
  closers.unshift(() => app.close())
  const address = /** @type {import('node:net').AddressInfo} */ (app.server.address())
  const origin = `http://127.0.0.1:${address.port}`
  const functions = `${origin}${config.compat.mount ?? '/server'}/functions`
  // What moralis-v1 1.13 sends with every call.
  const envelope = {
    _ApplicationId: 'portico',
    _ClientVersion: 'js1.13.0',
    _InstallationId: '8b0c6a3e-0000-4000-8000-000000000001',
  }
  const call = async (/** @type {string} */ name, /** @type {object} */ params) => {
    const answer = await post(`${functions}/${name}`, {
      ...envelope,
      chain: 'eth',
      address: busyWallet,
      ...params,
    })
    if (answer.status !== 200)
      throw new Error(`${name} answered ${answer.status}: ${JSON.stringify(answer.json)}`)
    return answer.json.result
  }
  const getNFTs = () => call('getNFTs', { limit: 100 })
  const nftsStraight = async () => {
    const total = await driver.query(NFT_COUNT_SQL, [chainId, busyWallet])
    const page = await driver.query(NFT_PAGE_SQL, [chainId, busyWallet])
    return { total: Number(total.rows[0]?.n), result: page.rows }
  }
  const getTokenBalances = () => call('getTokenBalances', {})
  const balancesStraight = async () =>
    (await driver.query(BALANCES_SQL, [chainId, busyWallet])).rows
  const getNativeBalance = () => call('getNativeBalance', {})
  // The gateway's callers send a key (or sign in).
  const { key } = await createApiKey(db, 'bench')
  let id = 0
  const gatewayBalance = async () => {
    const answer = await post(
      `${origin}/api/rpc/${chainId}`,
      { jsonrpc: '2.0', id: ++id, method: 'eth_getBalance', params: [busyWallet, 'latest'] },
      { 'x-api-key': key },
    )
    if (answer.status !== 200 || answer.json.error)
      throw new Error(`eth_getBalance answered ${answer.status}: ${JSON.stringify(answer.json)}`)
    return answer.json.result
  }

  // The same answers both ways, once, before anything is timed.
  const [nfts, nftRows] = [await getNFTs(), await nftsStraight()]
  if (nfts.total !== nftRows.total || nfts.result.length !== nftRows.result.length)
    throw new Error(`getNFTs: ${nfts.total}/${nfts.result.length} against ${nftRows.total}`)
  const [balances, balanceRows] = [await getTokenBalances(), await balancesStraight()]
  if (balances.length !== balanceRows.length)
    throw new Error(`getTokenBalances: ${balances.length} rows against ${balanceRows.length}`)
  const native = await getNativeBalance()
  if (BigInt(native.balance) !== BigInt(await gatewayBalance()))
    throw new Error('getNativeBalance differs from eth_getBalance')

  /** @type {[string, string, { measured: number[], anchor: number[] }][]} */
  const results = [
    ['getNFTs', 'the same SQL, to the driver', await inTurns(rounds, getNFTs, nftsStraight)],
    [
      'getTokenBalances',
      'the same SQL, to the driver',
      await inTurns(rounds, getTokenBalances, balancesStraight),
    ],
    [
      'getNativeBalance',
      'eth_getBalance through the gateway',
      await inTurns(rounds, getNativeBalance, gatewayBalance),
    ],
  ]
  agent.destroy()

  const p = percentile
  const ms = (/** @type {number} */ v) => v.toFixed(2).padStart(7)
  console.log(
    `\nbench:web3api (${databaseUrl ? 'PostgreSQL' : 'PGlite'}; ${os.cpus().length} cores; load ${(os.loadavg()[0] ?? 0).toFixed(2)}; ${rounds} rounds in turns, one call in flight)`,
  )
  console.log(
    `index: ${filled.transfers.toLocaleString('en')} token transfers, ${filled.nftTransfers.toLocaleString('en')} NFT transfers, ${filled.balances.toLocaleString('en')} balances, ${filled.holdings.toLocaleString('en')} holdings (filled in ${filled.seconds.toFixed(1)} s); the busy wallet: ${filled.busyTransfers.toLocaleString('en')} transfers, ${balances.length} balances, ${nfts.total.toLocaleString('en')} NFTs (page of ${nfts.result.length})`,
  )
  for (const [name, anchor, times] of results) {
    console.log(
      `  ${name.padEnd(17)} p50 ${ms(p(times.measured, 50))} ms  p99 ${ms(p(times.measured, 99))} ms   anchor (${anchor}) p50 ${ms(p(times.anchor, 50))} ms  p99 ${ms(p(times.anchor, 99))} ms   ratio p50 ${(p(times.measured, 50) / p(times.anchor, 50)).toFixed(2)}  p99 ${(p(times.measured, 99) / p(times.anchor, 99)).toFixed(2)}`,
    )
  }
  console.log(`  process peak RSS ${memoryMb().peak.toFixed(0)} MB (server and ${database.kind})`)
}

main()
  .catch((error) => {
    console.error(error)
    process.exitCode = 1
  })
  .finally(async () => {
    for (const close of closers) await close().catch(() => {})
    process.exit()
  })
