import fs from 'node:fs'
import { getAddress } from 'viem'
import { openDatabase } from '../packages/server/src/db/client.ts'
import { sql } from 'drizzle-orm'
const N = 40000, chunk = 5000
const handle = process.env.PG ? await openDatabase({ kind: 'postgres', url: process.env.PG, poolSize: 3 }) : await openDatabase({ kind: 'pglite', dir: fs.mkdtempSync('/tmp/ab-') })
const db = handle.db
await db.execute(sql`insert into users (id, address) values ('s', '0x0') on conflict do nothing`)
const mk = (p: string, i: number) => Array.from({ length: chunk }, (_, j) => ({ id: `${p}-${i + j}`, data: { from: getAddress('0x00000000000000000000000000000000000000aa'), to: '0x00000000000000000000000000000000000000AA', value: String(10n ** 30n + BigInt(i + j)), event: 'Transfer', chainId: 31337, address: '0x00000000000000000000000000000000000000BB', blockNumber: 10 + i, blockHash: '0x' + 'ab'.repeat(32), blockTimestamp: { __type: 'Date', iso: new Date().toISOString() }, transactionHash: '0x' + 'cd'.repeat(32), transactionIndex: 0, logIndex: j, confirmed: true } }))
const t0: Record<string, number> = {}
const V: Record<string, (rows: ReturnType<typeof mk>) => Promise<unknown>> = {
  recordset: (rows) => db.execute(sql`insert into objects (class_name, id, owner_id, public_read, data, created_at, updated_at) select 'T', r.id, 's', true, r.data, now(), now() from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as r(id text, data jsonb) on conflict do nothing returning id`),
  elements: (rows) => db.execute(sql`insert into objects (class_name, id, owner_id, public_read, data, created_at, updated_at) select 'T', r->>'id', 's', true, r->'data', now(), now() from jsonb_array_elements(${JSON.stringify(rows)}::jsonb) as r on conflict do nothing returning id`),
}
for (let i = 0; i < N; i += chunk) for (const [k, f] of (i / chunk) % 2 ? Object.entries(V) : Object.entries(V).reverse()) { const rows = mk(k, i); const t = performance.now(); await f(rows); t0[k] = (t0[k] ?? 0) + performance.now() - t }
console.log(Object.fromEntries(Object.entries(t0).map(([k, v]) => [k, `${(N / v * 1000).toFixed(0)} rows/s`])))
await handle.close()
