import { PGlite } from '@electric-sql/pglite'
import fs from 'node:fs'
const mode = process.argv[2]
const rss = () => (process.memoryUsage().rss / 1e6).toFixed(0)
let peak = 0
const timer = setInterval(() => { peak = Math.max(peak, process.memoryUsage().rss) }, 5)
const t = performance.now()
let db: PGlite
if (mode === 'memory') db = new PGlite()
else if (mode === 'dir-new') { fs.rmSync('/tmp/pgl-x', { recursive: true, force: true }); db = new PGlite('/tmp/pgl-x') }
else if (mode === 'dir-open') db = new PGlite('/tmp/pgl-x')
else if (mode === 'dump') { db = new PGlite(); await db.waitReady; const f = await db.dumpDataDir('gzip'); fs.writeFileSync('/tmp/pgl-dump.tgz', Buffer.from(await f.arrayBuffer())); console.log('dump bytes', fs.statSync('/tmp/pgl-dump.tgz').size) }
else if (mode === 'load-mem') db = new PGlite({ loadDataDir: new Blob([fs.readFileSync('/tmp/pgl-dump.tgz')]) })
else if (mode === 'load-dir') { fs.rmSync('/tmp/pgl-y', { recursive: true, force: true }); db = new PGlite('/tmp/pgl-y', { loadDataDir: new Blob([fs.readFileSync('/tmp/pgl-dump.tgz')]) }) }
else throw new Error(mode)
await db!.waitReady
await db!.query('select 1')
clearInterval(timer)
console.log(mode, 'ms', (performance.now() - t).toFixed(0), 'rss', rss(), 'peak', (peak / 1e6).toFixed(0))
await db!.close()
