import type { BackendClient } from '@portico/sdk/backend'

// Data shaping of the events dashboard: which window and bucket size a range means,
// checking the server's answer (GET /api/events/stats, described in /api/openapi.json), and filling the buckets
// the server leaves out (no events → no row) so the chart and table show every hour or day.

/** The time ranges the picker offers. */
export type StatsRange = '24h' | '7d' | '30d'

export const statsRanges: readonly { value: StatsRange; label: string }[] = [
  { value: '24h', label: 'Last 24 hours' },
  { value: '7d', label: 'Last 7 days' },
  { value: '30d', label: 'Last 30 days' },
]

export type Bucket = 'hour' | 'day'

/** Query parameters of one stats request. */
export interface StatsQuery {
  from: string
  to: string
  bucket: Bucket
  subdomain?: string | undefined
}

/** The server's answer, checked. */
export interface EventStats {
  buckets: { start: string; count: number }[]
  events: { event: string; count: number }[]
  subdomains: { subdomain: string; count: number }[]
  total: number
}

/** One bucket of the filled series; `start` in ms since the epoch. */
export interface SeriesPoint {
  start: number
  count: number
}

const HOUR = 3_600_000
const DAY = 24 * HOUR
const spans: Record<StatsRange, { bucket: Bucket; count: number }> = {
  '24h': { bucket: 'hour', count: 24 },
  '7d': { bucket: 'day', count: 7 },
  '30d': { bucket: 'day', count: 30 },
}

/** Start of the UTC hour or day containing `time`. */
export function bucketStart(time: number, bucket: Bucket): number {
  const size = bucket === 'hour' ? HOUR : DAY
  return Math.floor(time / size) * size
}

/**
 * The query for a range ending now: whole buckets (UTC hours or days), the current one included,
 * so `24h` is the current hour and the 23 before it.
 */
export function statsQuery(range: StatsRange, now: Date, subdomain?: string): StatsQuery {
  const { bucket, count } = spans[range]
  const size = bucket === 'hour' ? HOUR : DAY
  const from = bucketStart(now.getTime(), bucket) - (count - 1) * size
  return {
    from: new Date(from).toISOString(),
    to: now.toISOString(),
    bucket,
    ...(subdomain ? { subdomain } : {}),
  }
}

function isCountRow<K extends string>(
  row: unknown,
  key: K,
): row is Record<K, string> & { count: number } {
  if (typeof row !== 'object' || row === null) return false
  const record = row as Record<string, unknown>
  return typeof record[key] === 'string' && typeof record.count === 'number' && record.count >= 0
}

/** Checks the answer's shape; throws a `TypeError` naming what is wrong. */
export function parseStats(json: unknown): EventStats {
  const answer = (typeof json === 'object' && json !== null ? json : {}) as Record<string, unknown>
  const list = <K extends string>(name: string, key: K) => {
    const value = answer[name]
    if (!Array.isArray(value) || !value.every((row) => isCountRow(row, key)))
      throw new TypeError(`The statistics answer has no valid "${name}" list`)
    return value as (Record<K, string> & { count: number })[]
  }
  const buckets = list('buckets', 'start')
  if (buckets.some((row) => Number.isNaN(Date.parse(row.start))))
    throw new TypeError('The statistics answer has a bucket with an invalid start time')
  if (typeof answer.total !== 'number') throw new TypeError('The statistics answer has no total')
  return {
    buckets,
    events: list('events', 'event'),
    subdomains: list('subdomains', 'subdomain'),
    total: answer.total,
  }
}

/** Every bucket from `query.from` to `query.to`, with zero where the server had no row. */
export function fillBuckets(stats: EventStats, query: StatsQuery): SeriesPoint[] {
  const size = query.bucket === 'hour' ? HOUR : DAY
  const counts = new Map<number, number>()
  for (const row of stats.buckets) {
    const start = bucketStart(Date.parse(row.start), query.bucket)
    counts.set(start, (counts.get(start) ?? 0) + row.count)
  }
  const points: SeriesPoint[] = []
  const last = bucketStart(Date.parse(query.to), query.bucket)
  for (let start = Date.parse(query.from); start <= last; start += size) {
    points.push({ start, count: counts.get(start) ?? 0 })
  }
  return points
}

/** Events sorted by count (then name), at most `limit`. */
export function topEvents(stats: EventStats, limit = 10): EventStats['events'] {
  return [...stats.events]
    .sort((a, b) => b.count - a.count || a.event.localeCompare(b.event))
    .slice(0, limit)
}

/** Asks the server (admins only: 401 signed out, 403 not an admin, both as `BackendError`). */
export async function fetchStats(
  client: Pick<BackendClient, 'request'>,
  query: StatsQuery,
  signal?: AbortSignal,
): Promise<EventStats> {
  const { from, to, bucket, subdomain } = query
  const json = await client.request<unknown>('GET', '/api/events/stats', {
    query: { from, to, bucket, subdomain },
    signal,
  })
  return parseStats(json)
}
