// The server under test for `bench/server.mjs`, run as its own process (`node --import tsx`):
// the real Portico app on a file-backed PGlite (or PostgreSQL with DATABASE_URL), plus one bare
// Fastify route in the same process as the baseline. Prints one JSON line
// `{ url, token }` when listening.
//   node --conditions=source --import tsx bench/server-target.mjs <dataDir>          serve
//   node --conditions=source --import tsx bench/server-target.mjs <dataDir> count     print object count and exit
import { buildServer } from '../packages/server/src/app.ts'
import { issueNonce } from '../packages/server/src/auth/nonces.ts'
import { SignIns } from '../packages/server/src/auth/sign-in.ts'
import { loadConfig } from '../packages/server/src/config/server.ts'
import { openDatabase } from '../packages/server/src/db/client.ts'
import { sql } from 'drizzle-orm'

const [dataDir = 'data', mode = 'serve'] = process.argv.slice(2)
const databaseUrl = process.env.DATABASE_URL
const database = await openDatabase(
  databaseUrl ? { kind: 'postgres', url: databaseUrl } : { kind: 'pglite', dir: dataDir },
)

if (mode === 'count') {
  const result = await database.db.execute(
    sql`select class_name, count(*)::int as n from objects group by class_name
        union all select 'events', count(*)::int from events`,
  )
  const rows = /** @type {{ rows: { class_name: string, n: number }[] }} */ (
    /** @type {unknown} */ (result)
  ).rows
  console.log(JSON.stringify(Object.fromEntries(rows.map((r) => [r.class_name, r.n]))))
  await database.close()
  process.exit(0)
}

// Rate limits off: the load comes from one address on purpose.
const config = loadConfig({
  AUTH_RATE_LIMIT: '100000000',
  EVENTS_RATE_LIMIT: '100000000',
  ...process.env,
  DATA_DIR: dataDir,
  LOG_LEVEL: 'error',
})
const app = await buildServer({ config, database, logger: false })
// The baseline: a bare Fastify route with a JSON body, in the same process and framework.
app.post('/bench/bare', async (request) => ({ ok: true, echo: request.body }))
app.get('/bench/bare', async () => ({ ok: true }))
// Baselines for file transfers: a raw body read and dropped, and bytes streamed out, no storage.
await app.register(async (bare) => {
  bare.addContentTypeParser('application/octet-stream', (_request, payload, done) =>
    done(null, payload),
  )
  bare.post('/bench/sink', { bodyLimit: Number.MAX_SAFE_INTEGER }, async (request) => {
    let size = 0
    for await (const chunk of /** @type {AsyncIterable<Buffer>} */ (request.body))
      size += chunk.length
    return { size }
  })
  bare.get('/bench/source/:bytes', async (request, reply) => {
    const total = Number(/** @type {{ bytes: string }} */ (request.params).bytes)
    const chunk = Buffer.alloc(64 * 1024, 7)
    const { Readable } = await import('node:stream')
    const body = Readable.from(
      (function* () {
        for (let sent = 0; sent < total; sent += chunk.length)
          yield chunk.subarray(0, Math.min(chunk.length, total - sent))
      })(),
    )
    return reply.type('application/octet-stream').header('content-length', total).send(body)
  })
})
// For bench/objects.mjs: grows a class straight in the database (objects g in [from, to), owned
// in turn by the signed-in user and three others, every third one public), and waits for the
// field indexes that queries asked for.
app.post('/bench/fill', async (request) => {
  const { className, from, to, owner } =
    /** @type {{ className: string, from: number, to: number, owner: string }} */ (request.body)
  await database.db.execute(sql`insert into users (id, address) values
    ('bench-u1', '0x0000000000000000000000000000000000000001'),
    ('bench-u2', '0x0000000000000000000000000000000000000002'),
    ('bench-u3', '0x0000000000000000000000000000000000000003') on conflict do nothing`)
  for (let start = from; start < to; start += 100_000) {
    const end = Math.min(to, start + 100_000) - 1
    await database.db.execute(sql`
      insert into objects (class_name, id, owner_id, read_perm, write_perm, data, created_at)
      select ${className}, 'g' || g, o.id,
             case when g % 3 = 0 then array['*', o.id] else array[o.id] end, array[o.id],
             jsonb_build_object('kind', 'k' || (g % 100), 'score', g % 1000, 'n', g,
                                'name', 'item ' || g, 'tags', jsonb_build_array('a', 'b'),
                                'tag', 't' || (g % 500)),
             timestamptz '2026-01-01' + g * interval '1 second'
      from generate_series(${start}::int, ${end}::int) as g,
        lateral (select (array[${owner}, 'bench-u1', 'bench-u2', 'bench-u3'])[1 + g % 4] as id) as o`)
  }
  // BENCH_VACUUM=1: as autovacuum leaves a table after a bulk load on PostgreSQL (pages marked
  // all-visible: counts read the indexes alone); the embedded database runs no autovacuum.
  await database.db.execute(
    process.env.BENCH_VACUUM === '1' ? sql`vacuum (analyze) objects` : sql`analyze objects`,
  )
  return { ok: true }
})
// For bench/roles.mjs: a class whose objects the owner reads through the ACL's user entry and a
// second user through one of ten roles it holds (the role names are in each object's ACL).
app.post('/bench/roles', async (request) => {
  const { className, size, owner } =
    /** @type {{ className: string, size: number, owner: string }} */ (request.body)
  const member = await new SignIns(database.db).complete({
    nonce: (await issueNonce(database.db, 60_000)).nonce,
    address: '0x000000000000000000000000000000000000C0DE',
    chainId: 1,
    issuedAt: new Date(),
    skewMs: 60_000,
    ttlMs: 3_600_000,
  })
  const [{ id: memberId } = { id: '' }] = /** @type {{ rows: { id: string }[] }} */ (
    /** @type {unknown} */ (
      await database.db.execute(
        sql`select id from users where address = '0x000000000000000000000000000000000000C0DE'`,
      )
    )
  ).rows
  await database.db.execute(sql`
    insert into objects (class_name, id, owner_id, read_perm, write_perm, data)
    select '_Role', 'bench-role-' || r, ${owner}, array['*'], array[${owner}]::text[],
           jsonb_build_object('name', 'BenchRole' || r)
    from generate_series(0, 9) as r on conflict do nothing`)
  await database.db.execute(sql`
    insert into object_relations (class_name, field, owning_id, related_id)
    select '_Role', 'users', 'bench-role-' || r, ${memberId} from generate_series(0, 9) as r
    on conflict do nothing`)
  await database.db.execute(sql`
    insert into objects (class_name, id, owner_id, read_perm, write_perm, data, created_at)
    select ${className}, 'r' || g, ${owner}, array[${owner}, 'role:BenchRole' || (g % 10)],
           array[${owner}]::text[],
           jsonb_build_object('kind', 'k' || (g % 100), 'score', g % 1000, 'n', g),
           timestamptz '2026-01-01' + g * interval '1 second'
    from generate_series(0, ${size}::int - 1) as g`)
  await database.db.execute(sql`analyze objects`)
  return { token: member.token }
})
app.get('/bench/indexes', async () => {
  await app.services.fieldIndexes.idle()
  return { ok: true }
})
// A signed-in user, through the real sign-in statement.
const { token } = await new SignIns(database.db).complete({
  nonce: (await issueNonce(database.db, 60_000)).nonce,
  address: '0x000000000000000000000000000000000000bEEF',
  chainId: 1,
  issuedAt: new Date(),
  skewMs: 60_000,
  ttlMs: 3_600_000,
})
const url = await app.listen({ host: '127.0.0.1', port: 0 })
const [me] = /** @type {{ rows: { id: string }[] }} */ (
  /** @type {unknown} */ (
    await database.db.execute(
      sql`select id from users where address = '0x000000000000000000000000000000000000bEEF'`,
    )
  )
).rows
console.log(JSON.stringify({ url, token, userId: me?.id }))
const stop = async () => {
  await app.close()
  await database.close()
  process.exit(0)
}
process.on('SIGTERM', stop)
process.on('SIGINT', stop)
