import { getAddress } from 'viem'
import { openDatabase } from '../packages/server/src/db/client.ts'
import { sql } from 'drizzle-orm'
const N = 20000, chunk = 5000
const handle = await openDatabase({ kind: 'pglite' })
const db = handle.db
const client = (db as any).$client
await db.execute(sql`insert into users (id, address) values ('s', '0x0') on conflict do nothing`)
const mk = (p: string, i: number) => Array.from({ length: chunk }, (_, j) => ({ id: `${p}-${i + j}`, data: { from: getAddress('0x00000000000000000000000000000000000000aa'), to: '0x00000000000000000000000000000000000000AA', value: String(10n ** 30n + BigInt(i + j)), event: 'Transfer', chainId: 31337, address: '0x00000000000000000000000000000000000000BB', blockNumber: 10 + i, blockHash: '0x' + 'ab'.repeat(32), blockTimestamp: { __type: 'Date', iso: new Date().toISOString() }, transactionHash: '0x' + 'cd'.repeat(32), transactionIndex: 0, logIndex: j, confirmed: true } }))
async function run(label: string, f: (rows: ReturnType<typeof mk>, p: string) => Promise<void>) {
  const t = performance.now()
  for (let i = 0; i < N; i += chunk) await f(mk(label, i), label)
  const ms = performance.now() - t
  console.log(label, (N / ms * 1000).toFixed(0), 'rows/s', (process.memoryUsage().rss / 1e6).toFixed(0), 'MB')
}
await run('recordset', async (rows) => { await db.execute(sql`insert into objects (class_name, id, owner_id, public_read, data, created_at, updated_at) select 'T', r.id, 's', true, r.data, now(), now() from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as r(id text, data jsonb) on conflict do nothing`) })
await run('recordset-text', async (rows) => { await db.execute(sql`insert into objects (class_name, id, owner_id, public_read, data, created_at, updated_at) select 'T', r.id, 's', true, r.data::jsonb, now(), now() from json_to_recordset(${JSON.stringify(rows.map(r => ({id: r.id, data: JSON.stringify(r.data)})))}::json) as r(id text, data text) on conflict do nothing`) })
await run('json-recordset', async (rows) => { await db.execute(sql`insert into objects (class_name, id, owner_id, public_read, data, created_at, updated_at) select 'T', r.id, 's', true, r.data::jsonb, now(), now() from json_to_recordset(${JSON.stringify(rows)}::json) as r(id text, data json) on conflict do nothing`) })
const esc = (s: string) => s.replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n')
const now = new Date().toISOString()
await run('copy', async (rows, p) => {
  const text = rows.map((r) => `T\t${r.id}\ts\tt\t${esc(JSON.stringify(r.data))}\t${now}\t${now}\n`).join('')
  await client.query(`copy objects (class_name, id, owner_id, public_read, data, created_at, updated_at) from '/dev/blob'`, [], { blob: new Blob([text]) })
})
await run('copy-tx', async (rows, p) => {
  const text = rows.map((r) => `T\t${r.id}\ts\tt\t${esc(JSON.stringify(r.data))}\t${now}\t${now}\n`).join('')
  await client.transaction(async (tx: any) => {
    await tx.query(`create temp table if not exists inc (like objects including defaults) on commit drop`)
    await tx.query(`copy inc (class_name, id, owner_id, public_read, data, created_at, updated_at) from '/dev/blob'`, [], { blob: new Blob([text]) })
    await tx.query(`insert into objects select * from inc on conflict do nothing`)
  })
})
await handle.close()
