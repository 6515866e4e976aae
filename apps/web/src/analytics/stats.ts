import type { BackendClient } from '@portico/sdk/backend'
import { getEventStats, type EventStats } from '@portico/sdk/events'

export type { EventStats }

// Data shaping of the events dashboard: which window and bucket size a range means,
// asking the SDK for the statistics, and filling the buckets
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

/** Asks the server through the SDK (admins only: 401 signed out, 403 not an admin). */
export function fetchStats(
  client: Pick<BackendClient, 'request'>,
  query: StatsQuery,
  signal?: AbortSignal,
): Promise<EventStats> {
  return getEventStats(client, query, { signal })
}
