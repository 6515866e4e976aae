import { sql, type SQL } from 'drizzle-orm'
import { rowsOf, type Database } from '../db/client.ts'

export interface StatsQuery {
  from: Date
  to: Date
  bucket: 'hour' | 'day'
  subdomain?: string | undefined
  event?: string | undefined
}

export interface EventStats {
  buckets: { start: string; count: number }[]
  events: { event: string; count: number }[]
  subdomains: { subdomain: string; count: number }[]
  total: number
}

const hourMs = 3_600_000
const bucketMs = { hour: hourMs, day: 86_400_000 } as const

/** Most buckets one answer may hold (a year of days, or about seven weeks of hours). */
export const maxBuckets = 1200

/** Start of the UTC hour or day containing `date`. */
export function bucketStart(date: Date, bucket: 'hour' | 'day'): Date {
  return new Date(Math.floor(date.getTime() / bucketMs[bucket]) * bucketMs[bucket])
}

const nextHour = (date: Date) => new Date(Math.ceil(date.getTime() / hourMs) * hourMs)

/**
 * Event counts over [from, to): per UTC hour or day (empty buckets included, so a chart has no
 * gaps), the 50 most frequent events and subdomains, and the total.
 *
 * Whole hours come from `event_counts`, which the writer keeps up to date in the statement
 * that stores the events; only the partial hours at either end (a range ending "now" has one)
 * are counted from the events themselves, through the index on their time. A month of a busy
 * site reads a few thousand count rows and at most two hours of events, however many millions
 * are stored.
 */
export async function eventStats(db: Database, query: StatsQuery): Promise<EventStats> {
  const { from, to } = query
  const wholeFrom = nextHour(from)
  const wholeTo = bucketStart(to, 'hour')
  const hasWhole = wholeFrom < wholeTo
  const filters = (parts: SQL[]) => {
    if (query.subdomain !== undefined) parts.push(sql`subdomain = ${query.subdomain}`)
    if (query.event !== undefined) parts.push(sql`event = ${query.event}`)
    return sql.join(parts, sql` and `)
  }
  const edges = hasWhole
    ? sql`((created_at >= ${from} and created_at < ${wholeFrom}) or (created_at >= ${wholeTo} and created_at < ${to}))`
    : sql`created_at >= ${from} and created_at < ${to}`
  const whole = hasWhole
    ? sql`select hour as at, subdomain, event, count from event_counts
          where ${filters([sql`hour >= ${wholeFrom}`, sql`hour < ${wholeTo}`])} union all`
    : sql``
  // Buckets as epoch seconds: the same on both drivers whatever the session's time zone.
  const size = sql.raw(String(bucketMs[query.bucket] / 1000))
  const result = await db.execute(sql`
    with counted as (
      ${whole}
      select created_at as at, subdomain, event, 1::bigint as count from events where ${filters([edges])}
    )
    select 'bucket' as kind, (floor(extract(epoch from at) / ${size}) * ${size})::bigint::text as key,
           sum(count)::bigint as n
    from counted group by 2
    union all (select 'event', event, sum(count)::bigint from counted group by 2 order by 3 desc, 2 limit 50)
    union all (select 'subdomain', subdomain, sum(count)::bigint from counted group by 2 order by 3 desc, 2 limit 50)`)
  const rows = rowsOf<{ kind: string; key: string; n: string | number }>(result)
  const counts = new Map<number, number>()
  const perEvent: EventStats['events'] = []
  const perSubdomain: EventStats['subdomains'] = []
  let total = 0
  for (const row of rows) {
    const n = Number(row.n)
    if (row.kind === 'bucket') {
      counts.set(Number(row.key) * 1000, n)
      total += n
    } else if (row.kind === 'event') perEvent.push({ event: row.key, count: n })
    else perSubdomain.push({ subdomain: row.key, count: n })
  }
  // A union's order is not guaranteed: sort the top lists as their queries did.
  const byCount =
    <T extends { count: number }>(key: (t: T) => string) =>
    (a: T, b: T) =>
      b.count - a.count || (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0)
  perEvent.sort(byCount((e) => e.event))
  perSubdomain.sort(byCount((s) => s.subdomain))
  const buckets: EventStats['buckets'] = []
  const step = bucketMs[query.bucket]
  for (let t = bucketStart(from, query.bucket).getTime(); t < to.getTime(); t += step) {
    buckets.push({ start: new Date(t).toISOString(), count: counts.get(t) ?? 0 })
  }
  return { buckets, events: perEvent, subdomains: perSubdomain, total }
}
