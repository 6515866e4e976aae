import { getAddress } from 'viem'
import { openDatabase } from '../packages/server/src/db/client.ts'
import { sql } from 'drizzle-orm'
const N = 20000, chunk = 5000
const handle = await openDatabase({ kind: 'pglite' })
const db = handle.db
await db.execute(sql`insert into users (id, address) values ('s', '0x0') on conflict do nothing`)
const mk = (p: string, i: number) => Array.from({ length: chunk }, (_, j) => ({ id: `${p}-${i + j}`, data: { from: getAddress('0x00000000000000000000000000000000000000aa'), to: '0x00000000000000000000000000000000000000AA', value: String(10n ** 30n + BigInt(i + j)), event: 'Transfer', chainId: 31337, address: '0x00000000000000000000000000000000000000BB', blockNumber: 10 + i, blockHash: '0x' + 'ab'.repeat(32), blockTimestamp: { __type: 'Date', iso: new Date().toISOString() }, transactionHash: '0x' + 'cd'.repeat(32), transactionIndex: 0, logIndex: j, confirmed: true } }))
async function run(label: string, f: (rows: ReturnType<typeof mk>, p: string) => Promise<void>) {
  const t = performance.now()
  for (let i = 0; i < N; i += chunk) await f(mk(label, i), label)
  const ms = performance.now() - t
  console.log(label, (N / ms * 1000).toFixed(0), 'rows/s', (process.memoryUsage().rss / 1e6).toFixed(0), 'MB')
}
await run('parse-only', async (rows) => { await db.execute(sql`select count(*) from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as r(id text, data jsonb)`) })
await run('objects', async (rows) => { await db.execute(sql`insert into objects (class_name, id, owner_id, public_read, data, created_at, updated_at) select 'T', r.id, 's', true, r.data, now(), now() from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as r(id text, data jsonb) on conflict do nothing`) })
await run('objects-returning', async (rows) => { await db.execute(sql`insert into objects (class_name, id, owner_id, public_read, data, created_at, updated_at) select 'T', r.id, 's', true, r.data, now(), now() from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as r(id text, data jsonb) on conflict do nothing returning id`) })
await run('objects-unnest', async (rows) => { await db.execute(sql`insert into objects (class_name, id, owner_id, public_read, data, created_at, updated_at) select 'T', i, 's', true, d, now(), now() from unnest(${'{' + rows.map(r => '"' + r.id + '"').join(',') + '}'}::text[], ${'{' + rows.map(r => '"' + JSON.stringify(r.data).replace(/\\/g,'\\\\').replace(/"/g, '\\"') + '"').join(',') + '}'}::jsonb[]) as u(i, d) on conflict do nothing`) })
await run('events', async (rows) => { await db.execute(sql`insert into synced_events (name, object_id, block_number, confirmed) select 'x', r.id, r.block::bigint, r.confirmed from jsonb_to_recordset(${JSON.stringify(rows.map((r) => ({ id: r.id, block: '10', confirmed: true })))}::jsonb) as r(id text, block text, confirmed boolean) on conflict do nothing`) })
await db.execute(sql`drop index objects_read_perm_idx`)
await run('objects-nogin', async (rows) => { await db.execute(sql`insert into objects (class_name, id, owner_id, public_read, data, created_at, updated_at) select 'T', r.id, 's', true, r.data, now(), now() from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as r(id text, data jsonb) on conflict do nothing`) })
await db.execute(sql`drop index objects_owner_created_idx`)
await db.execute(sql`drop index objects_class_created_idx`)
await run('objects-pkonly', async (rows) => { await db.execute(sql`insert into objects (class_name, id, owner_id, public_read, data, created_at, updated_at) select 'T', r.id, 's', true, r.data, now(), now() from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as r(id text, data jsonb) on conflict do nothing`) })
await run('objects-text', async (rows) => { await db.execute(sql`create table if not exists t2 (id text primary key, d text)`); await db.execute(sql`insert into t2 select r.id, r.data::text from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as r(id text, data jsonb)`) })
await handle.close()
