import { createBackendClient } from '@portico/sdk/backend'
import { describe, expect, it } from 'vitest'
import { describeSeries } from './format.ts'
import {
  bucketStart,
  fetchStats,
  fillBuckets,
  statsQuery,
  topEvents,
  type EventStats,
} from './stats.ts'

const now = new Date('2026-11-21T14:35:10.000Z')
const empty: EventStats = { buckets: [], events: [], subdomains: [], total: 0 }

describe('statsQuery', () => {
  it('covers the current hour and the 23 before it for 24h', () => {
    expect(statsQuery('24h', now)).toEqual({
      from: '2026-11-20T15:00:00.000Z',
      to: '2026-11-21T14:35:10.000Z',
      bucket: 'hour',
    })
  })

  it('uses whole UTC days for 7d and 30d and passes the subdomain on', () => {
    expect(statsQuery('7d', now, 'app.example')).toEqual({
      from: '2026-11-15T00:00:00.000Z',
      to: now.toISOString(),
      bucket: 'day',
      subdomain: 'app.example',
    })
    expect(statsQuery('30d', now).from).toBe('2026-10-23T00:00:00.000Z')
  })
})

describe('fillBuckets', () => {
  it('returns one point per bucket with zeros where the server had no row', () => {
    const query = statsQuery('24h', now)
    const stats = { ...empty, buckets: [{ start: '2026-11-21T13:00:00.000Z', count: 4 }] }
    const points = fillBuckets(stats, query)
    expect(points).toHaveLength(24)
    expect(points[0]!.start).toBe(Date.parse('2026-11-20T15:00:00.000Z'))
    expect(points.at(-1)).toEqual({ start: Date.parse('2026-11-21T14:00:00.000Z'), count: 0 })
    expect(points.at(-2)).toEqual({ start: Date.parse('2026-11-21T13:00:00.000Z'), count: 4 })
    expect(points.reduce((sum, p) => sum + p.count, 0)).toBe(4)
  })

  it('matches buckets whose start is written with an offset', () => {
    const query = statsQuery('7d', now)
    const stats = { ...empty, buckets: [{ start: '2026-11-21T01:00:00+01:00', count: 2 }] }
    const points = fillBuckets(stats, query)
    expect(points).toHaveLength(7)
    expect(points.at(-1)!.count).toBe(2)
  })
})

describe('bucketStart', () => {
  it('floors to the UTC hour or day', () => {
    const time = Date.parse('2026-11-21T14:35:10.000Z')
    expect(new Date(bucketStart(time, 'hour')).toISOString()).toBe('2026-11-21T14:00:00.000Z')
    expect(new Date(bucketStart(time, 'day')).toISOString()).toBe('2026-11-21T00:00:00.000Z')
  })
})

describe('topEvents', () => {
  it('sorts by count, then name, and cuts at the limit', () => {
    const stats = {
      ...empty,
      events: [
        { event: 'b', count: 1 },
        { event: 'sign_in', count: 2 },
        { event: 'a', count: 1 },
        { event: 'page_view', count: 9 },
      ],
    }
    expect(topEvents(stats, 3).map((row) => row.event)).toEqual(['page_view', 'sign_in', 'a'])
  })
})

describe('fetchStats', () => {
  it('sends the query and checks the answer', async () => {
    const urls: string[] = []
    const client = createBackendClient({
      serverUrl: 'http://app.test',
      appId: 'test',
      fetch: async (url) => {
        urls.push(url)
        return Response.json(empty)
      },
    })
    await expect(fetchStats(client, statsQuery('24h', now, 'shop'))).resolves.toEqual(empty)
    const sent = new URL(urls[0]!)
    expect(sent.pathname).toBe('/api/events/stats')
    expect(Object.fromEntries(sent.searchParams)).toEqual({
      from: '2026-11-20T15:00:00.000Z',
      to: now.toISOString(),
      bucket: 'hour',
      subdomain: 'shop',
    })
  })

  it('fails on an answer of the wrong shape', async () => {
    const client = createBackendClient({
      serverUrl: 'http://app.test',
      appId: 'test',
      fetch: async () => Response.json({ rows: [] }),
    })
    await expect(fetchStats(client, statsQuery('7d', now))).rejects.toThrow(TypeError)
  })
})

describe('describeSeries', () => {
  it('names the total and the busiest bucket', () => {
    const points = [
      { start: Date.parse('2026-11-19T00:00:00Z'), count: 1 },
      { start: Date.parse('2026-11-20T00:00:00Z'), count: 1200 },
    ]
    expect(describeSeries(points, 'day')).toBe(
      '1,201 events over 2 days; the busiest day was Nov 20 with 1,200.',
    )
    expect(describeSeries([{ start: 0, count: 0 }], 'hour')).toBe('No events in the 1 hour shown.')
  })
})
