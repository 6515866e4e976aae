import { PGlite } from '@electric-sql/pglite'
const db = new PGlite()
await db.waitReady
const s = JSON.stringify(Array.from({ length: 5000 }, (_, j) => ({ id: 'x' + j, data: { a: '0x' + 'ab'.repeat(20), b: String(10n ** 30n), c: j, d: '0x' + 'cd'.repeat(32), e: '0x' + 'ef'.repeat(32), f: { __type: 'Date', iso: new Date().toISOString() }, g: true, h: 'Transfer', i: 31337, k: '0x' + '12'.repeat(20) } })))
const time = async (label: string, f: () => Promise<unknown>) => { await f(); const t = performance.now(); for (let i = 0; i < 4; i++) await f(); console.log(label, ((performance.now() - t) / 4).toFixed(0), 'ms') }
await time('param text length', () => db.query('select length($1::text)', [s]))
await time('exec literal length', () => db.exec(`select length('${s}')`))
await time('query literal length', () => db.query(`select length('${s}')`))
const bytes = new TextEncoder().encode(s)
await time('bytea param length', () => db.query('select length($1::bytea)', [bytes]))
await time('bytea param convert_from jsonb', () => db.query(`select count(*) from jsonb_to_recordset(convert_from($1::bytea, 'utf8')::jsonb) as r(id text, data jsonb)`, [bytes]))
await time('small', () => db.query('select 1'))
