import { getAddress } from 'viem'
import { openDatabase } from '../packages/server/src/db/client.ts'
import { sql } from 'drizzle-orm'
const N = 30000, chunk = 5000
const handle = await openDatabase(process.env.PG ? { kind: 'postgres', url: process.env.PG, poolSize: 3 } : { kind: 'pglite' })
const db = handle.db
await db.execute(sql`insert into users (id, address) values ('s', '0x0') on conflict do nothing`)
const mk = (p: string, i: number) => Array.from({ length: chunk }, (_, j) => ({ id: `${p}-${i + j}`, block: String(10 + i), data: { from: getAddress('0x00000000000000000000000000000000000000aa'), to: '0x00000000000000000000000000000000000000AA', value: String(10n ** 30n + BigInt(i + j)), event: 'Transfer', chainId: 31337, address: '0x00000000000000000000000000000000000000BB', blockNumber: 10 + i, blockHash: '0x' + 'ab'.repeat(32), blockTimestamp: { __type: 'Date', iso: new Date().toISOString() }, transactionHash: '0x' + 'cd'.repeat(32), transactionIndex: 0, logIndex: j, confirmed: true } }))
const t0: Record<string, number> = {}
const add = (k: string, ms: number) => (t0[k] = (t0[k] ?? 0) + ms)
const variants: Record<string, (rows: ReturnType<typeof mk>) => Promise<unknown>> = {
  A: (rows) => db.transaction(async (tx) => {
    await tx.execute(sql`insert into objects (class_name, id, owner_id, public_read, data, created_at, updated_at) select 'T', r.id, 's', true, r.data, now(), now() from jsonb_to_recordset(${JSON.stringify(rows.map(r => ({ id: r.id, data: r.data })))}::jsonb) as r(id text, data jsonb) on conflict do nothing returning id`)
    await tx.execute(sql`insert into synced_events (name, object_id, block_number, confirmed) select 'x', r.id, r.block::bigint, true from jsonb_to_recordset(${JSON.stringify(rows.map((r) => ({ id: r.id, block: r.block })))}::jsonb) as r(id text, block text) on conflict do nothing`)
  }),
  B: (rows) => db.execute(sql`with input as (select e->>'i' as id, (e->>'b')::bigint as block, e->'d' as data from jsonb_array_elements(${JSON.stringify(rows.map(r => ({ i: r.id, b: r.block, d: r.data })))}::jsonb) e),
      made as (insert into objects (class_name, id, owner_id, public_read, data, created_at, updated_at) select 'T', id, 's', true, data, now(), now() from input on conflict do nothing returning id)
      insert into synced_events (name, object_id, block_number, confirmed) select 'x', m.id, i.block, true from made m join input i using (id) on conflict do nothing`),
  C: (rows) => db.execute(sql`with input as (select e->>'i' as id, (e->>'b')::bigint as block, e->'d' as data from jsonb_array_elements(${'[' + rows.map(r => `{"i":"${r.id}","b":${r.block},"d":${JSON.stringify(r.data)}}`).join(',') + ']'}::jsonb) e),
      made as (insert into objects (class_name, id, owner_id, public_read, data, created_at, updated_at) select 'T', id, 's', true, data, now(), now() from input on conflict do nothing returning id)
      select count(*) from made`),
}
for (let i = 0; i < N; i += chunk) for (const [k, f] of Object.entries(variants)) { const rows = mk(k, i); const t = performance.now(); await f(rows); add(k, performance.now() - t) }
console.log(Object.fromEntries(Object.entries(t0).map(([k, v]) => [k, `${(N / v * 1000).toFixed(0)} rows/s`])), (process.memoryUsage().rss/1e6).toFixed(0))
await handle.close()
