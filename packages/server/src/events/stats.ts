import { and, count, desc, eq, gte, lt, sql, type SQL } from 'drizzle-orm'
import type { Database } from '../db/client.ts'
import { events } from '../db/schema.ts'

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

const bucketMs = { hour: 3_600_000, day: 86_400_000 } as const

/** Most buckets one answer may hold (a year of days, or about seven weeks of hours). */
export const maxBuckets = 1200

/** Start of the UTC hour or day containing `date`. */
export function bucketStart(date: Date, bucket: 'hour' | 'day'): Date {
  return new Date(Math.floor(date.getTime() / bucketMs[bucket]) * bucketMs[bucket])
}

/**
 * Event counts over [from, to): per UTC hour or day (empty buckets included, so a chart has no
 * gaps), the 50 most frequent events and subdomains, and the total.
 */
export async function eventStats(db: Database, query: StatsQuery): Promise<EventStats> {
  const filters: SQL[] = [gte(events.createdAt, query.from), lt(events.createdAt, query.to)]
  if (query.subdomain !== undefined) filters.push(eq(events.subdomain, query.subdomain))
  if (query.event !== undefined) filters.push(eq(events.event, query.event))
  const where = and(...filters)
  // Bucket in SQL as epoch seconds: the same on both drivers and independent of the session time zone.
  const size = bucketMs[query.bucket] / 1000
  const bucketExpr = sql<number>`(floor(extract(epoch from ${events.createdAt}) / ${sql.raw(String(size))}) * ${sql.raw(String(size))})::bigint`
  const [perBucket, perEvent, perSubdomain] = await Promise.all([
    db
      .select({ start: bucketExpr.mapWith(Number), count: count() })
      .from(events)
      .where(where)
      .groupBy(bucketExpr),
    db
      .select({ event: events.event, count: count() })
      .from(events)
      .where(where)
      .groupBy(events.event)
      .orderBy(desc(count()), events.event)
      .limit(50),
    db
      .select({ subdomain: events.subdomain, count: count() })
      .from(events)
      .where(where)
      .groupBy(events.subdomain)
      .orderBy(desc(count()), events.subdomain)
      .limit(50),
  ])
  const counts = new Map(perBucket.map((row) => [row.start * 1000, row.count]))
  const buckets: EventStats['buckets'] = []
  const step = bucketMs[query.bucket]
  for (let t = bucketStart(query.from, query.bucket).getTime(); t < query.to.getTime(); t += step) {
    buckets.push({ start: new Date(t).toISOString(), count: counts.get(t) ?? 0 })
  }
  return {
    buckets,
    events: perEvent,
    subdomains: perSubdomain,
    total: perBucket.reduce((sum, row) => sum + row.count, 0),
  }
}
