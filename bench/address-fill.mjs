// Shared by bench/addresses.mjs and bench/web3api.mjs: fills the address index's own tables
// directly (generate_series in the database, chunk by chunk) with `transfers` ERC-20 transfers
// among `wallets` addresses over 50 token contracts (one drawn by a hash of the transfer), 100,000 ERC-721 mints over 20 collections
// (scaled with `transfers`), and the balances and holdings they imply; one address, the busy
// wallet, is in 10,000 transfers and holds 2,000 NFTs whatever the fill's size (every 100th
// transfer and every 50th NFT of a million transfers), so its page measures the same work at
// every size and shows whether reads stay flat as the tables grow. Also the wallet page's queries
// written straight in SQL, the anchor both benchmarks divide by, and the percentile helpers.
import fs from 'node:fs'
import { sql } from 'drizzle-orm'

export const TOKENS = 50
export const COLLECTIONS = 20

/** The `i`th synthetic address (1-based), lowercase as the index keeps them. @param {number} i */
export const walletAddress = (i) => `0x${i.toString(16).padStart(40, '0')}`
/** The busy wallet: in 10,000 transfers, holding 2,000 NFTs (at least). */
export const busyWallet = walletAddress(1)

/**
 * Fills the index tables of `chainId` and returns the counts written.
 * @param {import('../packages/server/src/db/client.ts').Database} db
 * @param {{ chainId: number, transfers: number, wallets: number, log?: (line: string) => void }} options
 */
export async function fillIndex(db, { chainId, transfers, wallets, log = () => {} }) {
  const chunk = 100_000
  const nfts = Math.max(1_000, Math.floor(transfers / 10))
  const busyEvery = Math.max(100, Math.floor(transfers / 10_000))
  const busyNftEvery = Math.max(50, Math.floor(nfts / 2_000))
  const addr = (/** @type {string} */ n) => `'0x' || lpad(to_hex(${n}), 40, '0')` // the nth wallet, as walletAddress(n)
  const token = (/** @type {string} */ n) => `'0x' || 'ee' || lpad(to_hex(${n}), 38, '0')`
  const collection = (/** @type {string} */ n) => `'0x' || 'cc' || lpad(to_hex(${n}), 38, '0')`
  const started = performance.now()
  for (let from = 1; from <= transfers; from += chunk) {
    const to = Math.min(transfers, from + chunk - 1)
    // Ten transfers a block; the busy wallet receives every `busyEvery`th one.
    await db.execute(
      sql.raw(`
      insert into index_token_transfers (chain_id, transaction_hash, log_index, transaction_index,
        token_address, from_address, to_address, value, block_number, block_hash, block_timestamp,
        confirmed)
      select ${chainId}, '0x' || lpad(to_hex(g), 64, '0'), 0, g % 10,
        ${token(`abs(hashint8(g)) % ${TOKENS} + 1`)},
        ${addr(`(g * 7919) % ${wallets} + 1`)},
        case when g % ${busyEvery} = 0 then ${addr('1')} else ${addr(`(g * 104729 + 13) % ${wallets} + 1`)} end,
        (g * 31337) % 1000000007, g / 10, '0x' || lpad(to_hex(g / 10), 64, '0'),
        timestamptz '2024-01-01' + (g / 10) * interval '12 seconds', true
      from generate_series(${from}::bigint, ${to}::bigint) g`),
    )
    log(`  ${to.toLocaleString('en')} token transfers`)
  }
  for (let from = 1; from <= nfts; from += chunk) {
    const to = Math.min(nfts, from + chunk - 1)
    await db.execute(
      sql.raw(`
      insert into index_nft_transfers (chain_id, transaction_hash, log_index, batch_index,
        transaction_index, token_address, token_id, contract_type, transaction_type, amount,
        operator, from_address, to_address, block_number, block_hash, block_timestamp, confirmed)
      select ${chainId}, '0x' || 'ff' || lpad(to_hex(g), 62, '0'), 0, 0, 0,
        ${collection(`g % ${COLLECTIONS} + 1`)}, g, 'ERC721', 'Single', 1, null,
        '0x0000000000000000000000000000000000000000',
        case when g % ${busyNftEvery} = 0 then ${addr('1')} else ${addr(`(g * 7919) % ${wallets} + 1`)} end,
        g / 10, '0x' || lpad(to_hex(g / 10), 64, '0'),
        timestamptz '2024-01-01' + (g / 10) * interval '12 seconds', true
      from generate_series(${from}::bigint, ${to}::bigint) g`),
    )
  }
  // What the transfers imply: each wallet's net of each token (received less sent; a synthetic
  // wallet can send more than it received, and those rows, like zero ones, are not kept), and
  // each minted NFT held by its receiver.
  await db.execute(
    sql.raw(`
    insert into index_token_balances (chain_id, address, token_address, balance, block_number)
    select ${chainId}, address, token_address, sum(delta), max(block_number)
    from (
      select to_address as address, token_address, value as delta, block_number
      from index_token_transfers where chain_id = ${chainId}
      union all
      select from_address, token_address, -value, block_number
      from index_token_transfers where chain_id = ${chainId}
    ) moves
    group by address, token_address
    having sum(delta) > 0`),
  )
  await db.execute(
    sql.raw(`
    insert into index_nft_holdings (chain_id, address, token_address, token_id, contract_type,
      amount, block_number, block_number_minted)
    select chain_id, to_address, token_address, token_id, contract_type, amount, block_number,
      block_number
    from index_nft_transfers where chain_id = ${chainId}`),
  )
  await db.execute(
    sql.raw(`
    insert into index_tokens (chain_id, address, name, symbol, decimals)
    select ${chainId}, ${token('t')}, 'Token ' || t, 'T' || t, 18 from generate_series(1, ${TOKENS}) t
    union all
    select ${chainId}, ${collection('c')}, 'Collection ' || c, 'C' || c, null
    from generate_series(1, ${COLLECTIONS}) c
    on conflict do nothing`),
  )
  // PostgreSQL's autovacuum keeps a live site's visibility map current (counts answered from the
  // index alone); a bulk fill is vacuumed by hand to read as such a site does. PGlite has no
  // autovacuum, so there the fill is only analyzed, as a site on it would be.
  await db.execute(sql.raw(process.env.DATABASE_URL ? 'vacuum analyze' : 'analyze'))
  const count = async (/** @type {string} */ table, where = '') =>
    Number(
      /** @type {{ n: string }[]} */ (
        rowsOfResult(
          await db.execute(
            sql.raw(`select count(*) as n from ${table} where chain_id = ${chainId} ${where}`),
          ),
        )
      )[0]?.n,
    )
  return {
    seconds: (performance.now() - started) / 1000,
    transfers: await count('index_token_transfers'),
    nftTransfers: await count('index_nft_transfers'),
    balances: await count('index_token_balances'),
    holdings: await count('index_nft_holdings'),
    busyTransfers: await count(
      'index_token_transfers',
      `and (from_address = '${busyWallet}' or to_address = '${busyWallet}')`,
    ),
    busyBalances: await count('index_token_balances', `and address = '${busyWallet}'`),
    busyHoldings: await count('index_nft_holdings', `and address = '${busyWallet}'`),
  }
}

/** The rows of a drizzle `execute` answer (PGlite and node-postgres both have `rows`). @param {unknown} result */
export const rowsOfResult = (result) =>
  /** @type {Record<string, unknown>[]} */ (
    Array.isArray(result) ? result : (/** @type {{ rows: unknown[] }} */ (result).rows ?? [])
  )

/**
 * The driver under drizzle (PGlite, or node-postgres's Pool): the anchor's queries go to it
 * straight, text and parameters, without the query builder or the row mapping.
 * @param {import('../packages/server/src/db/client.ts').Database} db
 * @returns {{ query(text: string, params?: unknown[]): Promise<{ rows: Record<string, unknown>[] }> }}
 */
export const driverOf = (db) => /** @type {any} */ (db).$client

/** The balances query of the wallet page, as `AddressReads.balances` asks it. */
export const BALANCES_SQL = `
  select b.token_address, b.balance, b.block_number, t.name, t.symbol, t.decimals
  from index_token_balances b
  left join index_tokens t on t.chain_id = b.chain_id and t.address = b.token_address
  where b.chain_id = $1 and b.address = $2
  order by b.token_address`
/** The NFT page's count and first page (100), as `AddressReads.nfts` asks them. */
export const NFT_COUNT_SQL = `select count(*) as n from index_nft_holdings where chain_id = $1 and address = $2`
export const NFT_PAGE_SQL = `
  select h.token_address, h.token_id, h.contract_type, h.address as owner_of, h.amount,
    h.block_number, h.block_number_minted, u.uri as token_uri, t.name, t.symbol
  from index_nft_holdings h
  left join index_tokens t on t.chain_id = h.chain_id and t.address = h.token_address
  left join index_token_uris u on u.chain_id = h.chain_id and u.token_address = h.token_address
    and u.token_id = h.token_id
  where h.chain_id = $1 and h.address = $2
  order by h.token_address, h.token_id
  limit 100 offset 0`

/** @param {number[]} values @param {number} p */
export const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN
}

/**
 * Times `measured` and `anchor` in turns (which goes first alternates by round), after `warm`
 * untimed rounds of each; their times in ms.
 * @param {number} rounds @param {() => Promise<unknown>} measured @param {() => Promise<unknown>} anchor
 */
export async function inTurns(rounds, measured, anchor, warm = 20) {
  for (let i = 0; i < warm; i++) {
    await measured()
    await anchor()
  }
  /** @type {number[]} */
  const a = []
  /** @type {number[]} */
  const b = []
  const time = async (/** @type {() => Promise<unknown>} */ run, /** @type {number[]} */ into) => {
    const started = performance.now()
    await run()
    into.push(performance.now() - started)
  }
  for (let round = 0; round < rounds; round++) {
    if (round % 2) {
      await time(anchor, b)
      await time(measured, a)
    } else {
      await time(measured, a)
      await time(anchor, b)
    }
  }
  return { measured: a, anchor: b }
}

/** The process's resident memory now and its peak so far (Linux), in MB. */
export function memoryMb() {
  const status = fs.readFileSync('/proc/self/status', 'utf8')
  const kb = (/** @type {string} */ field) =>
    Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0) / 1024
  return { now: kb('VmRSS'), peak: kb('VmHWM') }
}
