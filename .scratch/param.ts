import { PGlite } from '@electric-sql/pglite'
const db = new PGlite()
await db.waitReady
const s = JSON.stringify(Array.from({ length: 5000 }, (_, j) => ({ id: 'x' + j, data: { a: '0x' + 'ab'.repeat(20), b: String(10n ** 30n), c: j, d: '0x' + 'cd'.repeat(32), e: '0x' + 'ef'.repeat(32), f: { __type: 'Date', iso: new Date().toISOString() }, g: true, h: 'Transfer', i: 31337, k: '0x' + '12'.repeat(20) } })))
console.log('MB', s.length / 1e6)
for (const q of ['select length($1::text)', 'select $1::json is not null', 'select $1::jsonb is not null', 'select count(*) from jsonb_to_recordset($1::jsonb) as r(id text, data jsonb)', 'select count(*) from jsonb_array_elements($1::jsonb)']) {
  const t = performance.now()
  for (let i = 0; i < 4; i++) await db.query(q, [s])
  console.log(q, ((performance.now() - t) / 4).toFixed(0), 'ms')
}
const t = performance.now()
for (let i = 0; i < 4; i++) JSON.parse(s)
console.log('JS JSON.parse', ((performance.now() - t) / 4).toFixed(1), 'ms')
