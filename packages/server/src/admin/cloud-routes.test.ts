import path from 'node:path'
import { Writable } from 'node:stream'
import { fileURLToPath } from 'node:url'
import Fastify, { type FastifyInstance } from 'fastify'
import { getAddress } from 'viem'
import { beforeAll, describe, expect, it } from 'vitest'
import { buildServer } from '../app.ts'
import { RecentServerLog } from '../http/recent-log.ts'
import { databaseKinds, signedIn, testApp, testConfig, testDatabase } from '../../test/helpers.ts'

// The console's cloud code on both databases: who may look and who may start a job (access
// decided before the input), a job started from the console running to its end with its log,
// a failing job's message, bad input answered 400, and the Logs section with cloud code's lines
// and the server's own warnings.

const ADMIN = getAddress(`0x${'a1'.repeat(20)}`)
const VIEWER = getAddress(`0x${'b2'.repeat(20)}`)
const CLOUD = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../test/fixtures/cloud-parse',
)
type Who = Awaited<ReturnType<typeof signedIn>>

describe.each(databaseKinds())('console cloud code on %s', (kind) => {
  let app: FastifyInstance
  let admin: Who
  let viewer: Who
  let stranger: Who
  beforeAll(async () => {
    const base = testConfig()
    ;({ app } = await testApp(kind, {
      app: { ...base.app, adminAddresses: [ADMIN], viewerAddresses: [VIEWER] },
      cloudCode: CLOUD,
    }))
    admin = await signedIn(app, ADMIN)
    viewer = await signedIn(app, VIEWER)
    stranger = await signedIn(app)
  })
  const call = (method: string, url: string, who?: Who, payload?: unknown) =>
    app.inject({
      method: method as 'GET',
      url,
      headers: who?.headers ?? {},
      ...(payload === undefined ? {} : { payload: payload as object }),
    })
  /** The run `id` once it has ended (runs go on in the background). */
  const ended = async (id: string) => {
    for (let i = 0; i < 100; i++) {
      const runs = (await call('GET', '/api/admin/cloud/runs', admin)).json().results as {
        id: string
        status: string
      }[]
      const run = runs.find((r) => r.id === id)
      if (run && run.status !== 'running') return run
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    throw new Error(`run ${id} did not end`)
  }

  it('refuses visitors (401) and strangers (403) on every route, before looking at the input', async () => {
    const routes: [string, string, unknown?][] = [
      ['GET', '/api/admin/cloud'],
      ['GET', '/api/admin/cloud/runs?limit=nope'],
      ['GET', '/api/admin/logs?level=loud'],
      ['POST', '/api/admin/cloud/jobs/tally', { params: {} }],
      ['POST', '/api/admin/cloud/jobs/tally', { params: 'not an object' }],
    ]
    for (const [method, url, body] of routes) {
      const visitor = await call(method, url, undefined, body)
      expect(visitor.statusCode, `${method} ${url}`).toBe(401)
      const refused = await call(method, url, stranger, body)
      expect(refused.statusCode, `${method} ${url}`).toBe(403)
      expect(refused.json().error.code).toBe('admin_only')
    }
  })

  it('lets a viewer look but not start a job', async () => {
    const cloud = await call('GET', '/api/admin/cloud', viewer)
    expect(cloud.statusCode, cloud.body).toBe(200)
    expect(cloud.json()).toMatchObject({ configured: true, jobs: ['broken', 'grumpy', 'tally'] })
    expect(cloud.json().functions.length).toBeGreaterThan(0)
    expect(cloud.json().triggers).toEqual(
      expect.arrayContaining([expect.stringMatching(/^beforeSave /)]),
    )
    expect((await call('GET', '/api/admin/cloud/runs', viewer)).statusCode).toBe(200)
    expect((await call('GET', '/api/admin/logs', viewer)).statusCode).toBe(200)
    for (const body of [{ params: {} }, { params: 'not an object' }]) {
      const start = await call('POST', '/api/admin/cloud/jobs/tally', viewer, body)
      expect(start.statusCode).toBe(403)
      expect(start.json().error.code).toBe('read_only')
    }
  })

  it('starts tally from the console: it succeeds with its message and log, audited and in the Logs', async () => {
    const start = await call('POST', '/api/admin/cloud/jobs/tally', admin, {
      params: { why: 'test' },
    })
    expect(start.statusCode, start.body).toBe(202)
    const { id } = start.json() as { id: string }
    const run = await ended(id)
    expect(run).toMatchObject({
      id,
      jobName: 'tally',
      source: 'console',
      status: 'succeeded',
      message: 'counted 0',
      params: { why: 'test' },
      log: [{ level: 'info', message: 'counted 0 notes' }],
    })
    const times = run as unknown as { startedAt: string; finishedAt: string }
    expect(Date.parse(times.finishedAt)).toBeGreaterThanOrEqual(Date.parse(times.startedAt))

    const audit = (await call('GET', '/api/admin/audit', admin)).json().results
    expect(audit[0]).toMatchObject({ actor: ADMIN, action: 'job.start', target: `tally ${id}` })

    const logs = await call('GET', '/api/admin/logs?text=COUNTED%200', viewer)
    expect(logs.statusCode).toBe(200)
    expect(logs.json().results[0]).toMatchObject({
      level: 'info',
      source: 'cloud',
      message: 'counted 0 notes',
      jobId: id,
    })
    // At warn and above, the info line is not shown.
    const warnings = (await call('GET', '/api/admin/logs?level=warn&text=counted', admin)).json()
    expect(warnings.results).toEqual([])
  })

  it('records a failing job with its error, and pages the runs newest first', async () => {
    const start = await call('POST', '/api/admin/cloud/jobs/broken', admin, {})
    expect(start.statusCode, start.body).toBe(202)
    const run = await ended(start.json().id)
    expect(run).toMatchObject({ status: 'failed', message: 'the job broke', params: {} })

    const first = (await call('GET', '/api/admin/cloud/runs?limit=1', admin)).json()
    expect(first.results.map((r: { id: string }) => r.id)).toEqual([run.id])
    expect(first.hasMore).toBe(true)
    const second = (await call('GET', '/api/admin/cloud/runs?limit=1&skip=1', admin)).json()
    expect(second.results[0].jobName).toBe('tally')
  })

  it('answers bad input with 400', async () => {
    const cases: [string, string, unknown?][] = [
      ['POST', '/api/admin/cloud/jobs/tally', { params: 'not an object' }],
      ['POST', '/api/admin/cloud/jobs/tally', { params: [1, 2] }],
      ['POST', '/api/admin/cloud/jobs/tally', { params: {}, extra: true }],
      ['POST', '/api/admin/cloud/jobs/tally', { params: { big: 'x'.repeat(70_000) } }],
      ['POST', '/api/admin/cloud/jobs/not-a-name', {}],
      ['GET', '/api/admin/cloud/runs?limit=0'],
      ['GET', '/api/admin/cloud/runs?limit=-1'],
      ['GET', '/api/admin/logs?level=loud'],
      ['GET', '/api/admin/logs?limit=0'],
      ['GET', '/api/admin/logs?text=' + 'x'.repeat(201)],
    ]
    for (const [method, url, body] of cases) {
      const answer = await call(method, url, admin, body)
      expect(answer.statusCode, `${method} ${url.slice(0, 80)}: ${answer.body}`).toBe(400)
      expect(answer.json().error.message.length).toBeGreaterThan(0)
    }
    const unknown = await call('POST', '/api/admin/cloud/jobs/nosuchjob', admin, {})
    expect(unknown.statusCode).toBe(404)
  })
})

describe.each(databaseKinds())('console cloud code without CLOUD_CODE on %s', (kind) => {
  it('says none is configured and has no jobs', async () => {
    const base = testConfig()
    const { app } = await testApp(kind, { app: { ...base.app, adminAddresses: [ADMIN] } })
    const admin = await signedIn(app, ADMIN)
    const cloud = await app.inject({ url: '/api/admin/cloud', headers: admin.headers })
    expect(cloud.json()).toEqual({ configured: false, functions: [], triggers: [], jobs: [] })
    const runs = await app.inject({ url: '/api/admin/cloud/runs', headers: admin.headers })
    expect(runs.json()).toEqual({ results: [], hasMore: false })
  })
})

describe("the server's recent warnings and errors", () => {
  const quiet = () =>
    new Writable({
      write: (_chunk, _encoding, done) => done(),
    })

  it('keeps warn and error lines with their request id, not info, not cloud code lines', () => {
    const recent = new RecentServerLog()
    // Fastify's own logger (pino), as the server creates it.
    const { log } = Fastify({ logger: { level: 'info', hooks: recent.hooks, stream: quiet() } })
    log.info('just so')
    log.child({ reqId: 'req-1' }).warn({ some: 'field' }, 'slow answer %d ms', 1200)
    log.error(new Error('the disk is full'))
    log.child({ cloud: true }).error('kept by cloud code instead')
    expect(recent.recent()).toMatchObject([
      { level: 'error', message: 'the disk is full' },
      { level: 'warn', message: 'slow answer 1200 ms', requestId: 'req-1' },
    ])
    expect(recent.recent({ level: 'error' })).toHaveLength(1)
    expect(recent.recent({ text: 'SLOW' })).toHaveLength(1)
  })

  it("shows the server's warnings in the console's Logs when logging is on", async () => {
    const database = await testDatabase('pglite')
    const base = testConfig()
    const app = await buildServer({
      config: testConfig({ app: { ...base.app, adminAddresses: [ADMIN] } }),
      database,
      logger: { level: 'warn', stream: quiet() },
    })
    try {
      await app.ready()
      app.log.warn('the probe warned')
      const admin = await signedIn(app, ADMIN)
      const logs = await app.inject({ url: '/api/admin/logs?text=probe', headers: admin.headers })
      expect(logs.json().results).toMatchObject([
        { level: 'warn', source: 'server', message: 'the probe warned' },
      ])
    } finally {
      await app.close()
      await database.close()
    }
  })
})
