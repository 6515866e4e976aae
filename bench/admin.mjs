// The admin console's bulk work: import throughput of a Parse export of 100,000 objects, as a
// ratio to plain multi-row INSERTs of the same rows in the same run; and the server's memory
// while it streams a class export as the class grows (10k, then 100k objects): it should stay
// flat, not grow with the class.
//   node --import tsx bench/admin.mjs   (npm run bench:admin; PGlite in a temp dir, or
//                                         DATABASE_URL=postgres://… for PostgreSQL)
//   BENCH_IMPORT_OBJECTS=100000 (default)
// Only 127.0.0.1; bounded in time.
import fs from 'node:fs'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import { getAddress } from 'viem'
import { buildServer } from '../packages/server/src/app.ts'
import { issueNonce } from '../packages/server/src/auth/nonces.ts'
import { SignIns } from '../packages/server/src/auth/sign-in.ts'
import { loadConfig } from '../packages/server/src/config/server.ts'
import { openDatabase } from '../packages/server/src/db/client.ts'
import { objects, users } from '../packages/server/src/db/schema.ts'
import { importFile } from '../packages/server/src/import/parse-import.ts'

const total = Number(process.env.BENCH_IMPORT_OBJECTS ?? 100_000)
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portico-bench-admin-'))
process.on('exit', () => fs.rmSync(dataDir, { recursive: true, force: true }))
setTimeout(() => {
  console.error('bench:admin took longer than 8 minutes, stopping')
  process.exit(1)
}, 480_000).unref()

const databaseUrl = process.env.DATABASE_URL
const database = await openDatabase(
  databaseUrl ? { kind: 'postgres', url: databaseUrl } : { kind: 'pglite', dir: dataDir },
)
const db = database.db
const admin = getAddress('0x00000000000000000000000000000000000a0a0a')

/**
 * An export of `count` rows of class `className`, as Parse Dashboard writes one: a bare array,
 * 2-space indentation, the envelope last, `className` on every row, a pointer embedded.
 * @param {string} className @param {number} count
 */
function exportText(className, count) {
  const rows = []
  for (let i = 0; i < count; i++)
    rows.push({
      createdAt: '2024-01-01T00:00:00.000Z',
      updatedAt: '2024-01-02T00:00:00.000Z',
      title: `row ${i}`,
      score: i % 1000,
      tags: ['a', 'b'],
      author: {
        createdAt: '2023-01-01T00:00:00.000Z',
        updatedAt: '2023-01-01T00:00:00.000Z',
        username: `user${i % 50}`,
        objectId: `user${i % 50}`,
        __type: 'Object',
        className: '_User',
      },
      ACL: { '*': { read: true }, [`user${i % 50}`]: { read: true, write: true } },
      objectId: `${className}${i}`,
      className,
    })
  return JSON.stringify(rows, null, 2)
}

// The server, whose object store the import writes through.
const config = loadConfig({
  ...process.env,
  DATA_DIR: dataDir,
  ADMIN_ADDRESSES: admin,
  LOG_LEVEL: 'error',
})
const app = await buildServer({ config, database, logger: false })

// Baseline: the same rows, already mapped, inserted 500 at a time.
await db
  .insert(users)
  .values({ id: 'bench-owner', address: getAddress(`0x${'0b'.repeat(20)}`) })
  .onConflictDoNothing()
const baseStart = performance.now()
for (let start = 0; start < total; start += 500) {
  const rows = []
  for (let i = start; i < Math.min(total, start + 500); i++)
    rows.push({
      className: 'Baseline',
      id: `Baseline${i}`,
      ownerId: 'bench-owner',
      readPerm: ['*', 'bench-owner'],
      writePerm: ['bench-owner'],
      data: { title: `row ${i}`, score: i % 1000, tags: ['a', 'b'] },
      createdAt: new Date('2024-01-01T00:00:00.000Z'),
      updatedAt: new Date('2024-01-02T00:00:00.000Z'),
    })
  await db.insert(objects).values(rows).onConflictDoNothing()
}
const baseSeconds = (performance.now() - baseStart) / 1000

const text = exportText('Imported', total)
const importStart = performance.now()
let lastShown = 0
const report = await importFile(db, app.services.objects, {
  name: 'Imported.json',
  text,
  onProgress: ({ done }) => {
    if (Date.now() - lastShown > 2000) {
      lastShown = Date.now()
      console.error(`importing: ${done} of ${total}`)
    }
  },
})
const importSeconds = (performance.now() - importStart) / 1000
if (report.imported !== total)
  throw new Error(`imported ${report.imported} of ${total}: ${JSON.stringify(report.refused[0])}`)

// Exports through the real server, memory sampled while a class of 10k and then 100k streams.
const url = await app.listen({ host: '127.0.0.1', port: 0 })
const { token } = await new SignIns(db).complete({
  nonce: (await issueNonce(db, 60_000)).nonce,
  address: admin,
  chainId: 1,
  issuedAt: new Date(),
  skewMs: 60_000,
  ttlMs: 3_600_000,
})

/**
 * Streams an export, dropping it; returns its bytes, seconds and the peak growth of what the
 * process holds (heap and buffers, measured after a garbage collection every 50 ms, so garbage
 * not yet collected does not count).
 * @param {string} className
 * @returns {Promise<{ size: number, seconds: number, growth: number }>}
 */
async function exportOnce(className) {
  const held = () => {
    globalThis.gc?.()
    const usage = process.memoryUsage()
    return usage.heapUsed + usage.external + usage.arrayBuffers
  }
  const before = held()
  let peak = before
  const timer = setInterval(() => (peak = Math.max(peak, held())), 50)
  const started = performance.now()
  /** @type {number} */
  const size = await new Promise((resolve, reject) => {
    http
      .get(
        `${url}/api/admin/classes/${className}/export?format=json`,
        { headers: { authorization: `Bearer ${token}` } },
        (response) => {
          let bytes = 0
          response.on('data', (chunk) => (bytes += chunk.length))
          response.on('end', () => resolve(bytes))
        },
      )
      .on('error', reject)
  })
  clearInterval(timer)
  peak = Math.max(peak, held())
  return { size, seconds: (performance.now() - started) / 1000, growth: peak - before }
}
// A class of a tenth of the size, for the comparison.
await importFile(db, app.services.objects, {
  name: 'Small.json',
  text: exportText('Small', total / 10),
})
const small = await exportOnce('Small')
const large = await exportOnce('Imported')
await app.close()
await database.close()

const MB = 1024 * 1024
console.log(
  `\nbench:admin (${databaseUrl ? 'PostgreSQL' : 'PGlite'}; ${os.cpus().length} cores; load ${(os.loadavg()[0] ?? 0).toFixed(2)})`,
)
console.log(
  `import of ${total} objects from a Parse Dashboard export: ${(total / importSeconds).toFixed(0)} objects/s (at least 5,000 wanted), ${(baseSeconds / importSeconds).toFixed(3)} of plain INSERTs of the same rows (${(total / baseSeconds).toFixed(0)}/s)`,
)
console.log(
  `export of ${Math.floor(total / 10)} objects: ${(small.size / MB).toFixed(1)} MB in ${small.seconds.toFixed(1)} s, memory held +${(small.growth / MB).toFixed(1)} MB; of ${total}: ${(large.size / MB).toFixed(1)} MB in ${large.seconds.toFixed(1)} s, memory held +${(large.growth / MB).toFixed(1)} MB (${(large.growth / Math.max(large.size, 1)).toFixed(2)} of the answer's size)`,
)
process.exit(0)
