import type { BackendClient } from '@portico/sdk/backend'
import { useServerData } from '../backend/use-server-data.ts'
import { EventsChart } from './events-chart.tsx'
import { formatCount } from './format.ts'
import { fillBuckets, statsQuery, type StatsQuery, type StatsRange } from './stats.ts'
import { RankedTable, SeriesTable } from './stats-tables.tsx'

// Who visits (as site analytics tools show it): unique visitors over time, top pages, referrers
// and devices, from the page views the server already stores (`GET /api/events/audience`).

interface Figures {
  visitors: number
  views: number
}

export interface Audience extends Figures {
  buckets: ({ start: string } & Figures)[]
  pages: ({ path: string } & Figures)[]
  referrers: ({ referrer: string } & Figures)[]
  devices: ({ device: string } & Figures)[]
}

/** Asks the server (the site team only, like the event statistics). */
export function fetchAudience(
  client: Pick<BackendClient, 'request'>,
  query: StatsQuery,
  signal?: AbortSignal,
): Promise<Audience> {
  const { from, to, bucket, subdomain } = query
  return client.request<Audience>('GET', '/api/events/audience', {
    query: { from, to, bucket, subdomain },
    signal,
  })
}

const deviceNames: Record<string, string> = {
  mobile: 'Phone',
  tablet: 'Tablet',
  desktop: 'Desktop',
  unknown: 'Not known',
}

/** The audience panels of the dashboard, for the same range and subdomain as its events. */
export function AudiencePanels({
  client,
  range,
  subdomain,
  now,
}: {
  client: Pick<BackendClient, 'request'>
  range: StatsRange
  subdomain?: string | undefined
  now: () => Date
}) {
  const { state, reload } = useServerData({
    key: ['analytics', 'audience', range, subdomain ?? ''],
    read: async (signal) => {
      const query = statsQuery(range, now(), subdomain)
      return { audience: await fetchAudience(client, query, signal), query }
    },
    whileReading: 'loading',
  })
  if (state.status === 'loading')
    return (
      <div className="card dashboard-status" role="status">
        Loading visitors…
      </div>
    )
  if (state.status === 'error')
    return (
      <div className="card dashboard-status" role="alert">
        <p>
          <strong>The visitors could not be loaded.</strong> {state.message}
        </p>
        <button type="button" onClick={reload}>
          Try again
        </button>
      </div>
    )
  const { audience, query } = state.data
  if (audience.views === 0)
    return (
      <div className="card dashboard-status" role="status">
        <p>
          <strong>No page views in this range yet.</strong> Visitors, pages, referrers and devices
          appear here as people open the site.
        </p>
      </div>
    )
  // The same days or hours as the events chart above, zeros included.
  const points = fillBuckets(
    {
      buckets: audience.buckets.map((row) => ({ start: row.start, count: row.visitors })),
      events: [],
      subdomains: [],
      total: audience.visitors,
    },
    query,
  )
  return (
    <div className="dashboard-grid audience">
      <div className="card dashboard-chart">
        <h3>
          Unique visitors{' '}
          <span className="total">
            {formatCount(audience.visitors)} {audience.visitors === 1 ? 'visitor' : 'visitors'},{' '}
            {formatCount(audience.views)} page {audience.views === 1 ? 'view' : 'views'}
          </span>
        </h3>
        <p className="muted small">
          A visitor counts once a day: nobody is followed from one day to the next.
        </p>
        <EventsChart points={points} bucket={query.bucket} noun="visitors" />
        <SeriesTable points={points} bucket={query.bucket} noun="Visitors" />
      </div>
      <div className="card">
        <RankedTable
          caption="Top pages"
          heading="Page"
          countHeading="Views"
          rows={audience.pages.map((row) => ({ name: row.path, count: row.views }))}
          total={audience.views}
        />
      </div>
      <div className="card">
        <RankedTable
          caption="Referrers"
          heading="Came from"
          countHeading="Visitors"
          rows={audience.referrers.map((row) => ({
            name: row.referrer || 'Direct or not known',
            count: row.visitors,
          }))}
          total={audience.visitors}
        />
      </div>
      <div className="card">
        <RankedTable
          caption="Devices"
          heading="Device"
          countHeading="Visitors"
          rows={audience.devices.map((row) => ({
            name: deviceNames[row.device] ?? row.device,
            count: row.visitors,
          }))}
          total={audience.visitors}
        />
      </div>
    </div>
  )
}
