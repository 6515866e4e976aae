// Analytics at scale: loads BENCH_EVENTS (10,000,000) synthetic events spread over the last 30
// days into a fresh database, through the same statement shape the event writer uses (events
// and their hourly counts in one statement), then times the dashboard's 30-day views
// (`eventStats`, day and hour buckets, with and without a filter) against the 1 s budget, and
// the plain scan of the same events it replaces, for scale.
//   npm run bench:events               (PGlite in a temp dir; DATABASE_URL=postgres://… for PostgreSQL)
// Ingestion through HTTP (≥ 0.3 of the bare route) is measured by bench:server.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { sql } from 'drizzle-orm'
import { openDatabase } from '../packages/server/src/db/client.ts'
import { eventStats } from '../packages/server/src/events/stats.ts'
import { hourOf } from '../packages/server/src/events/writer.ts'

const total = Number(process.env.BENCH_EVENTS ?? 10_000_000)
const chunk = 250_000
const runs = 5
const budgetMs = 1000
const databaseUrl = process.env.DATABASE_URL

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portico-bench-events-'))
process.on('exit', () => fs.rmSync(dataDir, { recursive: true, force: true }))
process.on('SIGINT', () => process.exit(130))
setTimeout(() => {
  console.error('bench:events took longer than 40 minutes, stopping')
  process.exit(1)
}, 2_400_000).unref()

/** A fresh database: a temp PGlite folder, or a new database on the PostgreSQL server. */
async function freshDatabase() {
  if (!databaseUrl) return openDatabase({ kind: 'pglite', dir: dataDir })
  const pg = (await import('pg')).default
  const admin = new pg.Client({ connectionString: databaseUrl })
  await admin.connect()
  const name = `portico_bench_events_${process.pid}`
  await admin.query(`drop database if exists ${name} with (force)`)
  await admin.query(`create database ${name}`)
  const url = databaseUrl.replace(/\/[^/?]*(\?|$)/, `/${name}$1`)
  const handle = await openDatabase({ kind: 'postgres', url })
  return {
    ...handle,
    close: async () => {
      await handle.close()
      await admin.query(`drop database if exists ${name} with (force)`)
      await admin.end()
    },
  }
}

/** @param {number[]} values */
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN

/**
 * Median wall time of `runs` runs of `run`, in ms.
 * @param {() => Promise<unknown>} run
 */
async function time(run) {
  await run() // warm
  const times = []
  for (let i = 0; i < runs; i++) {
    const started = performance.now()
    await run()
    times.push(performance.now() - started)
  }
  return median(times)
}

async function main() {
  const { db, close } = await freshDatabase()
  const now = Date.now()
  const spanMs = 30 * 86_400_000
  const loadStarted = performance.now()
  for (let start = 0; start < total; start += chunk) {
    const end = Math.min(total, start + chunk) - 1
    // The writer's statement shape (events and their hourly counts together), fed by
    // generate_series instead of request bodies: 5 subdomains, 12 event names, 30 days.
    await db.execute(sql`
      with stored as (
        insert into events (subdomain, event, options, visitor, created_at)
        select 'site' || (g % 5) || '.example', 'event_' || (g % 12), '{}'::jsonb, md5(g::text),
               to_timestamp(${now / 1000} - (g::float8 / ${total}) * ${spanMs / 1000})
        from generate_series(${start}::bigint, ${end}::bigint) as g
        returning subdomain, event, created_at
      )
      insert into event_counts (hour, subdomain, event, count)
      select ${hourOf(sql`created_at`)}, subdomain, event, count(*)
      from stored group by 1, 2, 3 order by 1, 2, 3
      on conflict (hour, subdomain, event) do update set count = event_counts.count + excluded.count`)
    const done = end + 1
    const seconds = (performance.now() - loadStarted) / 1000
    process.stdout.write(
      `\r  loaded ${done.toLocaleString('en')} of ${total.toLocaleString('en')} events (${(done / seconds).toFixed(0)}/s)   `,
    )
  }
  process.stdout.write('\n')
  await db.execute(sql`analyze events`)
  await db.execute(sql`analyze event_counts`)

  const to = new Date()
  const from = new Date(to.getTime() - spanMs)
  const views = [
    ['30 days by day', { from, to, bucket: 'day' }],
    ['30 days by hour', { from, to, bucket: 'hour' }],
    ['30 days, one event', { from, to, bucket: 'day', event: 'event_3' }],
    ['30 days, one subdomain', { from, to, bucket: 'day', subdomain: 'site2.example' }],
  ]
  /** @type {[string, number, number][]} */
  const timings = []
  for (const [name, query] of views) {
    let counted = 0
    const ms = await time(async () => {
      counted = (await eventStats(db, /** @type {any} */ (query))).total
    })
    timings.push([/** @type {string} */ (name), ms, counted])
  }
  // For scale: the same 30-day day view counted from the events themselves (what it did before).
  const scanStarted = performance.now()
  await db.execute(sql`
    select (floor(extract(epoch from created_at) / 86400) * 86400)::bigint, count(*)
    from events where created_at >= ${from} and created_at < ${to} group by 1`)
  const scanMs = performance.now() - scanStarted

  console.log(
    `\nbench:events (${databaseUrl ? 'PostgreSQL' : 'PGlite'}; ${total.toLocaleString('en')} events over 30 days, load ${((performance.now() - loadStarted) / 1000).toFixed(0)} s)`,
  )
  let failed = false
  for (const [name, ms, counted] of timings) {
    const ok = ms < budgetMs
    failed ||= !ok
    console.log(
      `  ${name.padEnd(24)} ${ms.toFixed(1).padStart(8)} ms  (${counted.toLocaleString('en')} events)  ${ok ? `< ${budgetMs} ms ok` : `≥ ${budgetMs} ms OVER BUDGET`}`,
    )
  }
  console.log(
    `  scanning the events      ${scanMs.toFixed(1).padStart(8)} ms  (one run, the day view without the counts)`,
  )
  await close()
  process.exitCode = failed ? 1 : 0
}

main().catch((error) => {
  console.error(error)
  process.exit(1)
})
