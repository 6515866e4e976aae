import { describe, expect, it } from 'vitest'
import { databaseKinds, signedIn, testApp, testConfig, testDatabase } from '../../test/helpers.ts'
import { audienceStats } from './audience.ts'
import { createEventWriter, type EventRow } from './writer.ts'

const admin = '0x00000000000000000000000000000000000000Ad'

/** A page view of `visitor` at `iso`, with the options the web app sends. */
const view = (visitor: string, iso: string, options: Record<string, unknown>): EventRow => ({
  subdomain: 'app.example.org',
  event: 'page_view',
  visitor,
  options,
  createdAt: new Date(iso),
})

describe.each(databaseKinds())('audience statistics on %s', (kind) => {
  it('counts unique visitors per bucket, top pages, referrers and devices from page views', async () => {
    const { db, close } = await testDatabase(kind)
    try {
      const writer = createEventWriter(db, 3)
      const rows: EventRow[] = [
        // Day one: a reads three pages from a search engine on a phone, b two on a desktop.
        view('a', '2026-03-01T09:00:00Z', {
          path: '/',
          referrer: 'search.example',
          device: 'mobile',
        }),
        view('a', '2026-03-01T09:01:00Z', { path: '/account', device: 'mobile' }),
        view('a', '2026-03-01T09:02:00Z', { path: '/', device: 'mobile' }),
        view('b', '2026-03-01T15:00:00Z', { path: '/', device: 'desktop' }),
        view('b', '2026-03-01T15:05:00Z', { path: '/u/0xabc', device: 'desktop' }),
        // Day two: c comes from a forum on a tablet; an old view without device or referrer.
        view('c', '2026-03-02T10:00:00Z', {
          path: '/',
          referrer: 'forum.example',
          device: 'tablet',
        }),
        view('d', '2026-03-02T11:00:00Z', { path: '/account' }),
        // Not page views, or outside the range, or another subdomain: not counted.
        { ...view('e', '2026-03-01T10:00:00Z', { path: '/' }), event: 'sign_in' },
        view('f', '2026-02-28T23:59:59Z', { path: '/' }),
        { ...view('g', '2026-03-01T10:00:00Z', { path: '/' }), subdomain: 'docs.example.org' },
      ]
      await Promise.all(rows.map((row) => writer.write(row)))

      const from = new Date('2026-03-01T00:00:00Z')
      const to = new Date('2026-03-03T00:00:00Z')
      const stats = await audienceStats(db, {
        from,
        to,
        bucket: 'day',
        subdomain: 'app.example.org',
      })
      expect(stats.visitors).toBe(4)
      expect(stats.views).toBe(7)
      expect(stats.buckets).toEqual([
        { start: '2026-03-01T00:00:00.000Z', visitors: 2, views: 5 },
        { start: '2026-03-02T00:00:00.000Z', visitors: 2, views: 2 },
      ])
      expect(stats.pages).toEqual([
        { path: '/', visitors: 3, views: 4 },
        { path: '/account', visitors: 2, views: 2 },
        { path: '/u/0xabc', visitors: 1, views: 1 },
      ])
      expect(stats.referrers).toEqual([
        { referrer: '', visitors: 3, views: 5 },
        { referrer: 'forum.example', visitors: 1, views: 1 },
        { referrer: 'search.example', visitors: 1, views: 1 },
      ])
      expect(stats.devices).toEqual([
        { device: 'desktop', visitors: 1, views: 2 },
        { device: 'mobile', visitors: 1, views: 3 },
        { device: 'tablet', visitors: 1, views: 1 },
        { device: 'unknown', visitors: 1, views: 1 },
      ])

      // Hour buckets, every subdomain: the other subdomain's visitor counts too.
      const hours = await audienceStats(db, {
        from,
        to: new Date('2026-03-01T12:00:00Z'),
        bucket: 'hour',
      })
      expect(hours.buckets).toHaveLength(12)
      expect(hours.buckets[9]).toEqual({ start: '2026-03-01T09:00:00.000Z', visitors: 1, views: 3 })
      expect(hours.buckets[10]).toEqual({
        start: '2026-03-01T10:00:00.000Z',
        visitors: 1,
        views: 1,
      })
      expect(hours.visitors).toBe(2)

      // An empty range: zeros in every bucket, empty lists.
      const empty = await audienceStats(db, {
        from: new Date('2025-01-01T00:00:00Z'),
        to: new Date('2025-01-03T00:00:00Z'),
        bucket: 'day',
      })
      expect(empty).toEqual({
        buckets: [
          { start: '2025-01-01T00:00:00.000Z', visitors: 0, views: 0 },
          { start: '2025-01-02T00:00:00.000Z', visitors: 0, views: 0 },
        ],
        visitors: 0,
        views: 0,
        pages: [],
        referrers: [],
        devices: [],
      })
    } finally {
      await close()
    }
  })

  it('answers the team only, and refuses a bad range with 400', async () => {
    const { app } = await testApp(kind, { app: { ...testConfig().app, adminAddresses: [admin] } })
    expect((await app.inject({ url: '/api/events/audience' })).statusCode).toBe(401)
    const someone = await signedIn(app)
    const refused = await app.inject({ url: '/api/events/audience', headers: someone.headers })
    expect(refused.statusCode).toBe(403)
    const { headers } = await signedIn(app, admin)
    await app.inject({
      method: 'POST',
      url: '/api/events',
      payload: {
        subdomain: 'app.example.org',
        event: 'page_view',
        options: { path: '/', device: 'mobile' },
      },
    })
    const answer = await app.inject({ url: '/api/events/audience?bucket=hour', headers })
    expect(answer.statusCode).toBe(200)
    expect(answer.json()).toMatchObject({
      visitors: 1,
      views: 1,
      pages: [{ path: '/', visitors: 1, views: 1 }],
      devices: [{ device: 'mobile', visitors: 1, views: 1 }],
    })
    for (const query of [
      'from=yesterday',
      'bucket=week',
      'event=page_view',
      'from=2026-01-02T00:00:00Z&to=2026-01-01T00:00:00Z',
    ]) {
      const bad = await app.inject({ url: `/api/events/audience?${query}`, headers })
      expect(bad.statusCode, query).toBe(400)
    }
  })
})
