import { createPublicClient, http, getAddress } from 'viem'
import { startAnvil } from '@portico/test-kit/anvil'
import { emitterAbi } from '@portico/test-kit/emitter'
import { deployEmitter } from '../packages/server/test/sync.ts'
import { openDatabase } from '../packages/server/src/db/client.ts'
import { sql } from 'drizzle-orm'

const N = Number(process.env.N ?? 20000)
const anvil = await startAnvil()
const e = await deployEmitter(anvil.url)
const start = await e.wallet.getBlockNumber()
for (let made = 0; made < N; made += 5000) {
  await e.send('mintMany', ['0x00000000000000000000000000000000000000aa', 5000n, BigInt(made)])
  await e.testClient.mine({ blocks: 100 })
}
const head = await e.wallet.getBlockNumber()
const plain = createPublicClient({ transport: http(anvil.url) })
const events = emitterAbi.filter((i) => i.type === 'event')
for (let round = 0; round < 2; round++) {
  let t = performance.now(); let n = 0
  for (let from = start; from <= head; from += 200n) {
    const to = from + 199n > head ? head : from + 199n
    n += (await plain.getLogs({ address: e.address, events, fromBlock: from, toBlock: to, strict: true })).length
  }
  const viemMs = performance.now() - t
  t = performance.now(); let m = 0; let bytes = 0; let fetchOnly = 0
  for (let from = start; from <= head; from += 200n) {
    const to = from + 199n > head ? head : from + 199n
    const t0 = performance.now()
    const r = await fetch(anvil.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_getLogs', params: [{ address: e.address, fromBlock: '0x' + from.toString(16), toBlock: '0x' + to.toString(16) }] }) })
    const text = await r.text()
    fetchOnly += performance.now() - t0
    bytes += text.length
    m += JSON.parse(text).result.length
  }
  const rawMs = performance.now() - t
  console.log({ n, viemMs: viemMs.toFixed(0), rate: (n / viemMs * 1000).toFixed(0), m, rawMs: rawMs.toFixed(0), fetchOnly: fetchOnly.toFixed(0), mb: (bytes / 1e6).toFixed(1) })
}
// DB insert cost
for (const kind of ['pglite', ...(process.env.PG ? ['postgres'] : [])] as const) {
  const handle = kind === 'pglite' ? await openDatabase({ kind: 'pglite' }) : await openDatabase({ kind: 'postgres', url: process.env.PG!, poolSize: 5 })
  const db = handle.db
  await db.execute(sql`insert into users (id, address) values ('s', '0x0') on conflict do nothing`)
  for (const chunk of [5000, 10000]) {
    const t = performance.now()
    for (let i = 0; i < N; i += chunk) {
      const rows = Array.from({ length: chunk }, (_, j) => ({ id: `${chunk}-${i + j}`, data: { from: getAddress('0x00000000000000000000000000000000000000aa'), to: '0x00000000000000000000000000000000000000AA', value: String(10n ** 30n + BigInt(i + j)), event: 'Transfer', chainId: 31337, address: e.address, blockNumber: 10 + i, blockHash: '0x' + 'ab'.repeat(32), blockTimestamp: { __type: 'Date', iso: new Date().toISOString() }, transactionHash: '0x' + 'cd'.repeat(32), transactionIndex: 0, logIndex: j, confirmed: true } }))
      const input = JSON.stringify(rows)
      await db.transaction(async (tx) => {
        await tx.execute(sql`insert into objects (class_name, id, owner_id, public_read, data, created_at, updated_at)
          select 'T', r.id, 's', true, r.data, now(), now() from jsonb_to_recordset(${input}::jsonb) as r(id text, data jsonb) on conflict do nothing returning id`)
        const ev = JSON.stringify(rows.map((r) => ({ id: r.id, block: '10', confirmed: true })))
        await tx.execute(sql`insert into synced_events (name, object_id, block_number, confirmed) select 'x', r.id, r.block::bigint, r.confirmed from jsonb_to_recordset(${ev}::jsonb) as r(id text, block text, confirmed boolean) on conflict do nothing`)
      })
    }
    const ms = performance.now() - t
    console.log(kind, { chunk, ms: ms.toFixed(0), rate: (N / ms * 1000).toFixed(0), rss: (process.memoryUsage().rss / 1e6).toFixed(0) })
  }
  await handle.close()
}
await anvil.stop()
