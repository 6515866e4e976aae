import { PGlite } from '@electric-sql/pglite'
const extra = process.argv.slice(2)
const m = () => { const u = process.memoryUsage(); return `rss ${(u.rss/1e6).toFixed(0)} heap ${(u.heapUsed/1e6).toFixed(0)} ext ${(u.external/1e6).toFixed(0)} ab ${(u.arrayBuffers/1e6).toFixed(0)}` }
console.log('before', m())
const t = performance.now()
const db = new PGlite('/tmp/pgl-x', extra.length ? { startParams: [...(PGlite as any).defaultStartParams ?? [], ...extra] } as any : {})
await db.waitReady
console.log('open', (performance.now()-t).toFixed(0), m(), (db as any).mod?.HEAP8?.length/1e6)
console.log((await db.query('show shared_buffers')).rows)
