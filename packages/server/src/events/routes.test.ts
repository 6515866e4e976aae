import { describe, expect, it } from 'vitest'
import { databaseKinds, signedIn, testApp, testConfig, testDatabase } from '../../test/helpers.ts'
import { buildServer } from '../app.ts'
import type { AppConfig } from '../config/app.ts'
import { events } from '../db/schema.ts'

const admin = '0x00000000000000000000000000000000000000Ad'
const appWith = (kind: Parameters<typeof testApp>[0], app: Partial<AppConfig> = {}) =>
  testApp(kind, { app: { ...testConfig().app, adminAddresses: [admin], ...app } })

describe.each(databaseKinds())('events on %s', (kind) => {
  it('stores valid events without the IP address and counts them for admins', async () => {
    const { app } = await appWith(kind)
    const post = (payload: object) =>
      app.inject({
        method: 'POST',
        url: '/api/events',
        payload,
        headers: { 'user-agent': 'test-agent' },
        remoteAddress: '203.0.113.7',
      })
    const answers = await Promise.all([
      post({ subdomain: 'App.Example.org', event: 'page_view', options: { path: '/' } }),
      post({ subdomain: 'app.example.org', event: 'page_view', options: { path: '/about' } }),
      post({ subdomain: 'docs.example.org', event: 'sign_in' }),
      post({ subdomain: '', event: 'ünïcödé ✓', options: { nested: { a: [1, 2, 3] } } }),
    ])
    expect(answers.map((a) => a.statusCode)).toEqual([202, 202, 202, 202])
    expect(answers[0]!.json()).toEqual({ ok: true })

    const rows = await app.services.database.db.select().from(events)
    expect(rows).toHaveLength(4)
    expect(JSON.stringify(rows)).not.toContain('203.0.113.7')
    expect(new Set(rows.map((r) => r.visitor)).size).toBe(1) // same visitor, same day
    expect(
      rows.find((r) => r.options && (r.options as { path?: string }).path === '/')?.subdomain,
    ).toBe('app.example.org')

    const { headers } = await signedIn(app, admin)
    const stats = await app.inject({ url: '/api/events/stats?bucket=hour', headers })
    expect(stats.statusCode).toBe(200)
    const body = stats.json()
    expect(body.total).toBe(4)
    expect(body.events[0]).toEqual({ event: 'page_view', count: 2 })
    expect(body.subdomains).toContainEqual({ subdomain: 'docs.example.org', count: 1 })
    expect(body.buckets.reduce((sum: number, b: { count: number }) => sum + b.count, 0)).toBe(4)
    expect(body.buckets).toHaveLength(30 * 24 + 1)
    const filtered = await app.inject({
      url: '/api/events/stats?event=page_view&subdomain=app.example.org&bucket=day',
      headers,
    })
    expect(filtered.json().total).toBe(2)
    expect(filtered.json().buckets.at(-1).count).toBe(2)
    const past = await app.inject({
      url: '/api/events/stats?from=2020-01-01T00:00:00Z&to=2020-01-02T00:00:00Z',
      headers,
    })
    expect(past.json()).toMatchObject({
      total: 0,
      buckets: [{ start: '2020-01-01T00:00:00.000Z', count: 0 }],
    })
  })

  it('attaches the signed-in user to an event', async () => {
    const { app } = await appWith(kind)
    const { user, headers } = await signedIn(app)
    await app.inject({
      method: 'POST',
      url: '/api/events',
      headers,
      payload: { subdomain: 'a', event: 'x' },
    })
    const [row] = await app.services.database.db.select().from(events)
    expect(row?.userId).toBe(user.id)
  })

  it('answers only after every one of many concurrent events is stored', async () => {
    const { app } = await appWith(kind, { eventsRateLimit: 10_000 })
    const answers = await Promise.all(
      Array.from({ length: 300 }, (_, i) =>
        app.inject({
          method: 'POST',
          url: '/api/events',
          payload: { subdomain: 'load', event: 'e', options: { i } },
        }),
      ),
    )
    expect(answers.every((a) => a.statusCode === 202)).toBe(true)
    const rows = await app.services.database.db.select({ options: events.options }).from(events)
    expect(new Set(rows.map((r) => (r.options as { i: number }).i)).size).toBe(300)
  })

  const invalid: [string, unknown, string][] = [
    ['no event', { subdomain: 'a' }, 'invalid_request'],
    ['an empty event', { subdomain: 'a', event: '' }, 'invalid_request'],
    ['an event over 100 characters', { subdomain: 'a', event: 'e'.repeat(101) }, 'invalid_request'],
    ['an event with a newline', { subdomain: 'a', event: 'a\nb' }, 'invalid_request'],
    ['a subdomain that is not a host name', { subdomain: 'a b/c', event: 'e' }, 'invalid_request'],
    ['a number as event', { subdomain: 'a', event: 42 }, 'invalid_request'],
    ['options as an array', { subdomain: 'a', event: 'e', options: [1] }, 'invalid_request'],
    ['options as a string', { subdomain: 'a', event: 'e', options: 'x' }, 'invalid_request'],
    [
      'options with 51 keys',
      {
        subdomain: 'a',
        event: 'e',
        options: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, i])),
      },
      'invalid_request',
    ],
    [
      'options over 4 KB',
      { subdomain: 'a', event: 'e', options: { big: 'x'.repeat(5000) } },
      'event_options_too_large',
    ],
    ['unknown fields', { subdomain: 'a', event: 'e', ip: '1.2.3.4' }, 'invalid_request'],
    ['a JSON array body', [], 'invalid_request'],
  ]
  it.each(invalid)('refuses %s with 400', async (_name, payload, code) => {
    const { app } = await sharedApp()
    const response = await app.inject({
      method: 'POST',
      url: '/api/events',
      payload: payload as object,
    })
    expect(response.statusCode).toBe(400)
    expect(response.json().error.code).toBe(code)
    expect(await app.services.database.db.$count(events)).toBe(0)
  })
  let shared: ReturnType<typeof appWith> | undefined
  const sharedApp = () => (shared ??= appWith(kind, { eventsRateLimit: 10_000 }))

  it('refuses bad JSON and oversized bodies', async () => {
    const { app } = await sharedApp()
    const badJson = await app.inject({
      method: 'POST',
      url: '/api/events',
      body: '{"subdomain":',
      headers: { 'content-type': 'application/json' },
    })
    expect(badJson.statusCode).toBe(400)
    expect(badJson.json().error.code).toBe('invalid_json')
    const huge = await app.inject({
      method: 'POST',
      url: '/api/events',
      payload: { subdomain: 'a', event: 'e', options: { big: 'x'.repeat(20_000) } },
    })
    expect(huge.statusCode).toBe(413)
    expect(huge.json().error.code).toBe('body_too_large')
  })

  it('shows statistics to admins only', async () => {
    const { app } = await appWith(kind)
    expect((await app.inject({ url: '/api/events/stats' })).statusCode).toBe(401)
    const someone = await signedIn(app)
    const refused = await app.inject({ url: '/api/events/stats', headers: someone.headers })
    expect(refused.statusCode).toBe(403)
    expect(refused.json().error.code).toBe('admin_only')
    const { headers } = await signedIn(app, admin)
    for (const query of [
      'from=2024-02-01T00:00:00Z&to=2024-01-01T00:00:00Z',
      'from=2020-01-01T00:00:00Z&to=2024-01-01T00:00:00Z&bucket=hour',
      'from=yesterday',
      'bucket=week',
    ]) {
      const response = await app.inject({ url: `/api/events/stats?${query}`, headers })
      expect(response.statusCode, query).toBe(400)
    }
  })

  it('rate-limits events per client', async () => {
    const { app } = await appWith(kind, { eventsRateLimit: 2 })
    const codes = []
    for (let i = 0; i < 3; i++) {
      const r = await app.inject({
        method: 'POST',
        url: '/api/events',
        payload: { subdomain: 'a', event: 'e' },
      })
      codes.push(r.statusCode)
    }
    expect(codes).toEqual([202, 202, 429])
    const other = await app.inject({
      method: 'POST',
      url: '/api/events',
      payload: { subdomain: 'a', event: 'e' },
      remoteAddress: '198.51.100.2',
    })
    expect(other.statusCode).toBe(202)
  })
})

describe.each(databaseKinds())('visitor ids on %s', (kind) => {
  it('one visitor has one id through two servers on one database, and after a restart', async () => {
    const database = await testDatabase(kind)
    const base = testConfig()
    const config = { ...base, app: { ...base.app, visitorSecret: undefined } }
    const track = (app: Awaited<ReturnType<typeof buildServer>>, ip: string) =>
      app.inject({
        method: 'POST',
        url: '/api/events',
        payload: { subdomain: 'a', event: 'page_view' },
        headers: { 'user-agent': 'same-browser' },
        remoteAddress: ip,
      })
    try {
      // Two servers at once (racing to make the secret), then a third as if restarted.
      const [a, b] = await Promise.all([
        buildServer({ config, database, logger: false }),
        buildServer({ config, database, logger: false }),
      ])
      await Promise.all([a.ready(), b.ready()])
      expect((await track(a, '198.51.100.1')).statusCode).toBe(202)
      expect((await track(b, '198.51.100.1')).statusCode).toBe(202)
      expect((await track(b, '198.51.100.2')).statusCode).toBe(202)
      await a.close()
      await b.close()
      const restarted = await buildServer({ config, database, logger: false })
      await restarted.ready()
      expect((await track(restarted, '198.51.100.1')).statusCode).toBe(202)
      await restarted.close()

      const rows = await database.db.select().from(events).orderBy(events.id)
      expect(rows).toHaveLength(4)
      const [first, second, other, afterRestart] = rows.map((r) => r.visitor)
      expect(second).toBe(first)
      expect(afterRestart).toBe(first)
      expect(other).not.toBe(first)
    } finally {
      await database.close()
    }
  })
})
