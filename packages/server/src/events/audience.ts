import { sql } from 'drizzle-orm'
import { rowsOf, type Database } from '../db/client.ts'
import { bucketStart } from './stats.ts'

// Who visits, from the page views already stored (`page_view` events): unique visitors over time,
// the top pages, where visitors came from and on what kind of device. A visitor is the event's
// daily visitor id (events/visitor.ts): nobody is followed from one day to the next, so over a
// range of days a visitor counts once per day they came. The web app sends the path, the
// referring site's host (never its full address) and a device class with each page view.

export interface AudienceQuery {
  from: Date
  to: Date
  bucket: 'hour' | 'day'
  subdomain?: string | undefined
}

export type AudienceStats = {
  /** Visitors and page views per UTC hour or day (every bucket of the range, zeros included). */
  buckets: { start: string; visitors: number; views: number }[]
  visitors: number
  views: number
  /** The 10 most viewed paths. */
  pages: { path: string; visitors: number; views: number }[]
  /** The 10 referring hosts with the most visitors; '' is no referrer (typed, bookmarked). */
  referrers: { referrer: string; visitors: number; views: number }[]
  /** Visitors per device class (`mobile`, `tablet`, `desktop`; `unknown` when not sent). */
  devices: { device: string; visitors: number; views: number }[]
}

const bucketMs = { hour: 3_600_000, day: 86_400_000 } as const
const TOP = 10

/** The audience of [from, to), from the page views of that range (through the events' time index). */
export async function audienceStats(db: Database, query: AudienceQuery): Promise<AudienceStats> {
  const { from, to } = query
  const size = sql.raw(String(bucketMs[query.bucket] / 1000))
  const subdomain = query.subdomain === undefined ? sql`` : sql`and subdomain = ${query.subdomain}`
  // Every figure in one statement over one reading of the range's page views. Text fields are
  // bounded: options are the client's, and a long value would only bloat the answer.
  const result = await db.execute(sql`
    with views as materialized (
      select visitor, created_at,
        left(options->>'path', 200) as path,
        coalesce(left(options->>'referrer', 100), '') as referrer,
        coalesce(left(options->>'device', 20), 'unknown') as device
      from events
      where event = 'page_view' and created_at >= ${from} and created_at < ${to} ${subdomain}
    )
    select 'bucket' as kind, (floor(extract(epoch from created_at) / ${size}) * ${size})::bigint::text as key,
      count(distinct visitor) as visitors, count(*) as views
    from views group by 2
    union all select 'total', '', count(distinct visitor), count(*) from views
    union all (select 'page', path, count(distinct visitor), count(*) from views
      where path is not null group by 2 order by 4 desc, 2 limit ${TOP})
    union all (select 'referrer', referrer, count(distinct visitor), count(*) from views
      group by 2 order by 3 desc, 2 limit ${TOP})
    union all (select 'device', device, count(distinct visitor), count(*) from views
      group by 2 order by 3 desc, 2 limit ${TOP})`)
  const rows = rowsOf<{
    kind: string
    key: string
    visitors: string | number
    views: string | number
  }>(result)
  const answer: AudienceStats = {
    buckets: [],
    visitors: 0,
    views: 0,
    pages: [],
    referrers: [],
    devices: [],
  }
  const perBucket = new Map<number, { visitors: number; views: number }>()
  for (const row of rows) {
    const figures = { visitors: Number(row.visitors), views: Number(row.views) }
    if (row.kind === 'bucket') perBucket.set(Number(row.key) * 1000, figures)
    else if (row.kind === 'total') Object.assign(answer, figures)
    else if (row.kind === 'page') answer.pages.push({ path: row.key, ...figures })
    else if (row.kind === 'referrer') answer.referrers.push({ referrer: row.key, ...figures })
    else answer.devices.push({ device: row.key, ...figures })
  }
  // A union's order is not guaranteed: sort the lists as their queries did.
  const by =
    <T extends { visitors: number; views: number }>(
      field: 'visitors' | 'views',
      key: (t: T) => string,
    ) =>
    (a: T, b: T) =>
      b[field] - a[field] || (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0)
  answer.pages.sort(by('views', (p) => p.path))
  answer.referrers.sort(by('visitors', (r) => r.referrer))
  answer.devices.sort(by('visitors', (d) => d.device))
  const step = bucketMs[query.bucket]
  for (let t = bucketStart(from, query.bucket).getTime(); t < to.getTime(); t += step) {
    const figures = perBucket.get(t) ?? { visitors: 0, views: 0 }
    answer.buckets.push({ start: new Date(t).toISOString(), ...figures })
  }
  return answer
}
