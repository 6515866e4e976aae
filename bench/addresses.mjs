// The address index: its backfill speed, and a wallet's page read from it, each as a ratio to
// the least that can do the same work on this machine in the same run.
//  1. Backfill: BENCH_ADDRESSES_TRANSFERS (100,000) ERC-20 transfers on anvil (the test-kit
//     emitter's mintMany: ten transfers a transaction, ten transactions a block) to
//     BENCH_ADDRESSES_WALLETS (1,000) addresses, all indexed at once (as watched addresses from
//     block 0); the server's own address index, in-process in the real server (its native
//     transactions off: transfers alone are measured), timed from the insert of the addresses
//     to every address caught up with the head. Anchor: a bare viem `getLogs` loop over the same
//     blocks that decodes every transfer, reads the headers of their blocks (for the timestamps
//     the rows hold) and writes the same rows to the same table with multi-row INSERTs. Its
//     range is the same size in logs: the index asks for the transfers of 100 addresses at a
//     time, aiming at 500 logs a call on PGlite (2,000 on PostgreSQL), so the anchor asks for
//     every transfer over as many blocks as hold that many. Printed: transfers/s of both, the
//     time ratio index ÷ anchor, and the process's peak RSS through the backfill.
//  2. Reads: the index tables filled directly with BENCH_ADDRESSES_READ_TRANSFERS (1,000,000)
//     token transfers over 10,000 addresses, 100,000 NFT mints, and the balances and holdings
//     they imply (bench/address-fill.mjs); the wallet page of the busy address (its balances,
//     and its NFTs' count and first page of 100) through the product's read path
//     (`AddressReads`, what the Web3 API and the server module call), p50 and p99 over
//     BENCH_ROUNDS (300) rounds, ÷ the same statements sent straight to the database driver.
//     That anchor, rather than the contract sync's own rows: the sync keeps one document per
//     event, so a balance there is a sum over every transfer at read time; that would compare
//     two layouts, where this compares the read path with the least it can do on its tables.
//   npm run bench:addresses   (PGlite in a temp dir; DATABASE_URL=postgres://… for PostgreSQL:
//   a fresh database is made on it)
// Only 127.0.0.1; stops after 25 minutes at most; stops its anvil itself.
import { benchProcess } from './bench-process.mjs'
import { spawn } from 'node:child_process'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import pg from 'pg'
import { sql } from 'drizzle-orm'
import {
  createPublicClient,
  createWalletClient,
  encodeFunctionData,
  getAddress,
  http,
  publicActions,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { foundry } from 'viem/chains'
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
  rowsOfResult,
  walletAddress,
} from './address-fill.mjs'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const transfers = Number(process.env.BENCH_ADDRESSES_TRANSFERS ?? 100_000)
const wallets = Number(process.env.BENCH_ADDRESSES_WALLETS ?? 1_000)
const readTransfers = Number(process.env.BENCH_ADDRESSES_READ_TRANSFERS ?? 1_000_000)
const readWallets = Number(process.env.BENCH_ADDRESSES_READ_WALLETS ?? 10_000)
const rounds = Number(process.env.BENCH_ROUNDS ?? 300)
const perTransaction = 10
const transactionsPerBlock = 10
const chainId = 31337
/** The filled tables' chain: apart from the backfilled one. */
const readChainId = 1
const key = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80'
const databaseUrl = process.env.DATABASE_URL

const { dataDir, children } = benchProcess('bench:addresses', 25)
/** @type {(() => Promise<void>)[]} */
const closers = []

const { buildServer } = await import('../packages/server/src/app.ts').catch(() => {
  throw new Error(
    'run with: node --conditions=source --import tsx bench/addresses.mjs (npm run bench:addresses does)',
  )
})
const { loadConfig } = await import('../packages/server/src/config/server.ts')
const { openDatabase } = await import('../packages/server/src/db/client.ts')
const { EMBEDDED_TARGET_LOGS, TARGET_LOGS } = await import('../packages/server/src/sync/range.ts')
const { emitterAbi, emitterBytecode } = await import('../test-kit/src/emitter.ts')

/**
 * Starts a process and resolves once its output matches `ready`.
 * @param {[string, ...string[]]} command @param {RegExp} ready
 */
function start(command, ready) {
  const child = spawn(command[0], command.slice(1), {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  children.push(child)
  return new Promise((resolve, reject) => {
    let output = ''
    child.stdout.on('data', (/** @type {Buffer} */ chunk) => {
      output += chunk
      if (ready.test(output)) resolve(child)
    })
    child.once('exit', (code) => reject(new Error(`${command[0]} exited early (code ${code})`)))
  })
}

/**
 * One JSON-RPC call, or a batch of them, straight to the node.
 * @param {string} url @param {{ method: string, params: unknown[] }[]} calls
 * @returns {Promise<any[]>}
 */
async function rpc(url, calls) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(calls.map((c, id) => ({ jsonrpc: '2.0', id, ...c }))),
  })
  const answers = /** @type {{ id: number, result?: unknown, error?: { message: string } }[]} */ (
    await response.json()
  )
  for (const answer of answers) if (answer.error) throw new Error(answer.error.message)
  return answers.sort((a, b) => a.id - b.id).map((a) => a.result)
}

/** A fresh database: a temp PGlite folder, or a new database on the PostgreSQL server. */
async function freshDatabase() {
  if (!databaseUrl) return openDatabase({ kind: 'pglite', dir: dataDir })
  const admin = new pg.Client({ connectionString: databaseUrl })
  await admin.connect()
  const name = `portico_bench_addresses_${process.pid}`
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

async function main() {
  const port = 20_000 + Math.floor(Math.random() * 20_000)
  await start(
    [path.join(root, 'node_modules/.bin/anvil'), '--host', '127.0.0.1', '--port', String(port)],
    /Listening on/,
  )
  const anvilUrl = `http://127.0.0.1:${port}`
  const wallet = createWalletClient({
    account: privateKeyToAccount(key),
    chain: foundry,
    transport: http(anvilUrl),
  }).extend(publicActions)
  const deployed = await wallet.waitForTransactionReceipt({
    hash: await wallet.deployContract({ abi: emitterAbi, bytecode: emitterBytecode }),
    pollingInterval: 20,
  })
  const emitter = getAddress(/** @type {string} */ (deployed.contractAddress))
  const startBlock = deployed.blockNumber + 1n
  // The wallets, clear of the precompiles; each transaction mints to one chosen at random.
  const addresses = Array.from({ length: wallets }, (_, i) => walletAddress(0x10000 + i))
  let seed = 42
  const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31) * wallets
  console.log(`minting ${transfers.toLocaleString('en')} transfers to ${wallets} addresses…`)
  await rpc(anvilUrl, [{ method: 'evm_setAutomine', params: [false] }])
  let nonce = await wallet.getTransactionCount({ address: wallet.account.address })
  const minted = performance.now()
  for (let made = 0; made < transfers;) {
    const calls = []
    for (let t = 0; t < transactionsPerBlock && made < transfers; t++) {
      const count = Math.min(perTransaction, transfers - made)
      calls.push({
        method: 'eth_sendTransaction',
        params: [
          {
            from: wallet.account.address,
            to: emitter,
            gas: '0x40000',
            nonce: `0x${(nonce++).toString(16)}`,
            data: encodeFunctionData({
              abi: emitterAbi,
              functionName: 'mintMany',
              args: [
                /** @type {`0x${string}`} */ (addresses[Math.floor(random())]),
                BigInt(count),
                BigInt(made),
              ],
            }),
          },
        ],
      })
      made += count
    }
    await rpc(anvilUrl, calls)
    await rpc(anvilUrl, [{ method: 'anvil_mine', params: ['0x1'] }])
  }
  await rpc(anvilUrl, [{ method: 'evm_setAutomine', params: [true] }])
  const head = await wallet.getBlockNumber({ cacheTime: 0 })
  const blocks = Number(head - startBlock + 1n)
  console.log(
    `  ${blocks} blocks in ${((performance.now() - minted) / 1000).toFixed(1)} s; head ${head}`,
  )

  const database = await freshDatabase()
  closers.push(() => database.close())
  const db = database.db
  const driver = driverOf(db)
  const config = loadConfig({
    DATA_DIR: path.join(dataDir, 'data'),
    LOG_LEVEL: 'error',
    HOST: '127.0.0.1',
    RPC_URL_31337: anvilUrl,
    ALLOWED_CHAIN_IDS: '31337',
    ADDRESS_INDEX_CHAINS: '31337',
    ADDRESS_INDEX_NATIVE_31337: 'off',
    ADDRESS_INDEX_CONFIRMATIONS_31337: '1',
    ADDRESS_INDEX_POLL_MS: '20',
  })
  const app = await buildServer({ config, database, logger: false })
  await app.ready()
  closers.unshift(() => app.close())
  const count = async (/** @type {string} */ query) =>
    Number(rowsOfResult(await db.execute(sql.raw(query)))[0]?.n)

  // 1. The index, from empty to caught up.
  const values = addresses.map((a) => `(${chainId}, '${a}', 'watch', ${startBlock})`).join(',')
  const rssBefore = memoryMb()
  const indexStarted = performance.now()
  await db.execute(
    sql.raw(
      `insert into indexed_addresses (chain_id, address, source, next_block) values ${values}`,
    ),
  )
  for (;;) {
    const behind = await count(
      `select count(*) as n from indexed_addresses where chain_id = ${chainId} and next_block <= ${head}`,
    )
    if (behind === 0) break
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
  const indexSeconds = (performance.now() - indexStarted) / 1000
  const indexPeak = memoryMb().peak
  const indexed = await count(
    `select count(*) as n from index_token_transfers where chain_id = ${chainId}`,
  )
  if (indexed !== transfers)
    throw new Error(`the index wrote ${indexed} transfers, not ${transfers}`)
  // Stopped now: its polling would share the database with the figures below.
  await app.services.addressIndex.stop()

  // The anchor: the same rows, read as plainly as viem reads them, into the same (emptied) table.
  await db.execute(sql.raw(`delete from index_token_transfers where chain_id = ${chainId}`))
  const targetLogs = database.kind === 'pglite' ? EMBEDDED_TARGET_LOGS : TARGET_LOGS
  const logsPerBlock = perTransaction * transactionsPerBlock
  const range = BigInt(Math.max(1, Math.floor(targetLogs / logsPerBlock)))
  const plain = createPublicClient({ transport: http(anvilUrl) })
  const transfer = emitterAbi.filter((item) => item.type === 'event' && item.name === 'Transfer')
  const columns = 12
  const plainStarted = performance.now()
  let written = 0
  for (let from = startBlock; from <= head; from += range) {
    const toBlock = from + range - 1n > head ? head : from + range - 1n
    const logs = await plain.getLogs({ events: transfer, fromBlock: from, toBlock, strict: true })
    const numbers = [...new Set(logs.map((log) => log.blockNumber))]
    const headers = new Map(
      await Promise.all(
        numbers.map(
          async (n) =>
            /** @type {const} */ ([n, (await plain.getBlock({ blockNumber: n })).timestamp]),
        ),
      ),
    )
    for (let i = 0; i < logs.length; i += 400) {
      const slice = logs.slice(i, i + 400)
      /** @type {unknown[]} */
      const params = []
      for (const log of slice)
        params.push(
          chainId,
          log.transactionHash.toLowerCase(),
          log.logIndex,
          log.transactionIndex,
          log.address.toLowerCase(),
          /** @type {any} */ (log.args).from.toLowerCase(),
          /** @type {any} */ (log.args).to.toLowerCase(),
          String(/** @type {any} */ (log.args).value),
          String(log.blockNumber),
          log.blockHash,
          new Date(Number(headers.get(log.blockNumber)) * 1000).toISOString(),
          true,
        )
      const rows = slice.map(
        (_, r) =>
          `(${Array.from({ length: columns }, (_, c) => `$${r * columns + c + 1}`).join(',')})`,
      )
      await driver.query(
        `insert into index_token_transfers (chain_id, transaction_hash, log_index,
          transaction_index, token_address, from_address, to_address, value, block_number,
          block_hash, block_timestamp, confirmed) values ${rows.join(',')}
          on conflict do nothing`,
        params,
      )
      written += slice.length
    }
  }
  const plainSeconds = (performance.now() - plainStarted) / 1000
  if (written !== transfers) throw new Error(`the anchor wrote ${written}, not ${transfers}`)

  // 2. The wallet page among many transfers.
  console.log(
    `filling the index tables: ${readTransfers.toLocaleString('en')} transfers over ${readWallets.toLocaleString('en')} addresses…`,
  )
  const filled = await fillIndex(db, {
    chainId: readChainId,
    transfers: readTransfers,
    wallets: readWallets,
    log: (line) => console.log(line),
  })
  const reads = app.services.addressReads
  const product = async () => {
    const balances = await reads.balances(readChainId, busyWallet)
    const nfts = await reads.nfts(readChainId, busyWallet, { limit: 100 })
    return { balances: balances.length, nfts: nfts.result.length, total: nfts.total }
  }
  const straight = async () => {
    const balances = await driver.query(BALANCES_SQL, [readChainId, busyWallet])
    const total = await driver.query(NFT_COUNT_SQL, [readChainId, busyWallet])
    const nfts = await driver.query(NFT_PAGE_SQL, [readChainId, busyWallet])
    return {
      balances: balances.rows.length,
      nfts: nfts.rows.length,
      total: Number(total.rows[0]?.n),
    }
  }
  const [a, b] = [await product(), await straight()]
  if (JSON.stringify(a) !== JSON.stringify(b))
    throw new Error(`the two reads differ: ${JSON.stringify(a)} and ${JSON.stringify(b)}`)
  const times = await inTurns(rounds, product, straight)
  const finalPeak = memoryMb().peak

  const indexRate = transfers / indexSeconds
  const plainRate = transfers / plainSeconds
  const p = (/** @type {number[]} */ v, /** @type {number} */ q) => percentile(v, q)
  console.log(
    `\nbench:addresses (${databaseUrl ? 'PostgreSQL' : 'PGlite'}; ${os.cpus().length} cores; load ${(os.loadavg()[0] ?? 0).toFixed(2)})`,
  )
  console.log(
    `backfill: ${transfers.toLocaleString('en')} transfers to ${wallets.toLocaleString('en')} addresses over ${blocks} blocks`,
  )
  console.log(
    `  anchor: viem getLogs loop + INSERT   ${plainRate.toFixed(0).padStart(8)} transfers/s  ${plainSeconds.toFixed(2)} s  (${range} blocks, ${Number(range) * logsPerBlock} logs a call)`,
  )
  console.log(
    `  address index, empty → caught up     ${indexRate.toFixed(0).padStart(8)} transfers/s  ${indexSeconds.toFixed(2)} s`,
  )
  console.log(
    `  time ratio index ÷ anchor ${(indexSeconds / plainSeconds).toFixed(2)} (rate ratio ${(indexRate / plainRate).toFixed(3)})`,
  )
  console.log(
    `  process peak RSS through the backfill ${indexPeak.toFixed(0)} MB (${rssBefore.now.toFixed(0)} MB before it; ${database.kind === 'pglite' ? 'PGlite in this process' : 'PostgreSQL in its own process, not counted'})`,
  )
  console.log(
    `wallet page: ${filled.transfers.toLocaleString('en')} token transfers, ${filled.nftTransfers.toLocaleString('en')} NFT transfers, ${filled.balances.toLocaleString('en')} balances, ${filled.holdings.toLocaleString('en')} holdings (filled in ${filled.seconds.toFixed(1)} s); the busy wallet: ${filled.busyTransfers.toLocaleString('en')} transfers, ${a.balances} balances, ${a.total.toLocaleString('en')} NFTs (page of ${a.nfts})`,
  )
  const line = (/** @type {string} */ name, /** @type {number[]} */ v) =>
    `  ${name.padEnd(38)} p50 ${p(v, 50).toFixed(2).padStart(7)} ms  p99 ${p(v, 99).toFixed(2).padStart(7)} ms`
  console.log(line('anchor: the same SQL, to the driver', times.anchor))
  console.log(line('AddressReads balances + nfts', times.measured))
  console.log(
    `  ratio product ÷ anchor  p50 ${(p(times.measured, 50) / p(times.anchor, 50)).toFixed(2)}  p99 ${(p(times.measured, 99) / p(times.anchor, 99)).toFixed(2)}  (${rounds} rounds in turns)`,
  )
  console.log(`  process peak RSS by the end ${finalPeak.toFixed(0)} MB`)
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
