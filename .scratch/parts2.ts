import { getAddress } from 'viem'
import { openDatabase } from '../packages/server/src/db/client.ts'
import { sql } from 'drizzle-orm'
const N = 20000, chunk = 5000
const handle = await openDatabase({ kind: 'pglite' })
const db = handle.db
await db.execute(sql`insert into users (id, address) values ('s', '0x0') on conflict do nothing`)
await db.execute(sql`create table o2 (like objects including defaults including indexes including generated)`)
await db.execute(sql`create table o3 (like objects including defaults)`); await db.execute(sql`alter table o3 alter column size drop not null`)
await db.execute(sql`alter table o3 add primary key (class_name, id)`)
const mk = (p: string, i: number) => Array.from({ length: chunk }, (_, j) => ({ id: `${p}-${i + j}`, data: { from: getAddress('0x00000000000000000000000000000000000000aa'), to: '0x00000000000000000000000000000000000000AA', value: String(10n ** 30n + BigInt(i + j)), event: 'Transfer', chainId: 31337, address: '0x00000000000000000000000000000000000000BB', blockNumber: 10 + i, blockHash: '0x' + 'ab'.repeat(32), blockTimestamp: { __type: 'Date', iso: new Date().toISOString() }, transactionHash: '0x' + 'cd'.repeat(32), transactionIndex: 0, logIndex: j, confirmed: true } }))
const t0: Record<string, number> = {}
const add = (k: string, ms: number) => (t0[k] = (t0[k] ?? 0) + ms)
for (let i = 0; i < N; i += chunk) {
  for (const table of ['objects', 'o2', 'o3']) {
    const rows = mk(table, i)
    await db.transaction(async (tx) => {
      let t = performance.now()
      await tx.execute(sql`create temp table st (id text, data jsonb) on commit drop`)
      await tx.execute(sql`insert into st select r.id, r.data from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as r(id text, data jsonb)`)
      add('stage', performance.now() - t)
      t = performance.now()
      await tx.execute(sql`insert into ${sql.identifier(table)} (class_name, id, owner_id, public_read, data, created_at, updated_at) select 'T', id, 's', true, data, now(), now() from st on conflict do nothing`)
      add(table, performance.now() - t)
    })
  }
}
console.log(Object.fromEntries(Object.entries(t0).map(([k, v]) => [k, `${(N / v * 1000).toFixed(0)} rows/s`])))
await handle.close()
