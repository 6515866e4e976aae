import { useEffect, useState } from 'react'
import type { BackendClient } from '@portico/sdk/backend'
import { SignInFirst } from '../wallet/access-state.tsx'
import { NotAllowed } from '../shell/not-allowed.tsx'
import { RangePicker, SubdomainFilter } from './controls.tsx'
import { AudiencePanels } from './audience.tsx'
import { EventsChart } from './events-chart.tsx'
import { formatCount } from './format.ts'
import { fillBuckets, topEvents, type StatsRange } from './stats.ts'
import { eventRows, RankedTable, SeriesTable, subdomainRows } from './stats-tables.tsx'
import { useStats, type StatsState } from './use-stats.ts'

/**
 * The events dashboard: admins see events over time, top events and subdomains, then unique
 * visitors, top pages, referrers and devices, for a range and subdomain they pick; everyone else
 * is told why they see nothing.
 */
const currentTime = () => new Date()

export function Dashboard({
  client,
  now = currentTime,
}: {
  client: Pick<BackendClient, 'request'>
  now?: () => Date
}) {
  const [range, setRange] = useState<StatsRange>('7d')
  const [subdomain, setSubdomain] = useState('')
  const [knownSubdomains, setKnownSubdomains] = useState<string[]>([])
  const { state, reload } = useStats(client, { range, subdomain: subdomain || undefined, now })

  // The filter keeps every subdomain seen so far, so filtering by one does not hide the others.
  useEffect(() => {
    if (state.status !== 'ready') return
    setKnownSubdomains((known) => {
      const names = state.stats.subdomains.map((row) => row.subdomain).filter(Boolean)
      const merged = [...new Set([...known, ...names])].sort()
      return merged.length === known.length ? known : merged
    })
  }, [state])

  if (state.status === 'signed-out') return <SignedOut />
  if (state.status === 'forbidden') return <NotAllowedHere />

  return (
    <section className="dashboard" aria-labelledby="dashboard-heading">
      <h2 id="dashboard-heading" className="visually-hidden">
        Events
      </h2>
      <div className="dashboard-controls">
        <RangePicker value={range} onChange={setRange} />
        <SubdomainFilter value={subdomain} options={knownSubdomains} onChange={setSubdomain} />
      </div>
      <DashboardBody state={state} reload={reload} />
      {/* Once the events say the user may see statistics (their refusal is shown once). */}
      {state.status === 'ready' && (
        <AudiencePanels
          client={client}
          range={range}
          subdomain={subdomain || undefined}
          now={now}
        />
      )}
    </section>
  )
}

function DashboardBody({ state, reload }: { state: StatsState; reload: () => void }) {
  if (state.status === 'loading') {
    return (
      <div className="card dashboard-status" role="status" aria-live="polite">
        Loading statistics…
      </div>
    )
  }
  if (state.status === 'error') {
    return (
      <div className="card dashboard-status" role="alert">
        <p>
          <strong>The statistics could not be loaded.</strong> {state.message}
        </p>
        <button type="button" onClick={reload}>
          Try again
        </button>
      </div>
    )
  }
  if (state.status !== 'ready') return null
  const { stats, query } = state
  if (stats.total === 0) {
    return (
      <div className="card dashboard-status" role="status">
        <p>
          <strong>No events in this range yet.</strong> Page views and sign-ins appear here as
          visitors use the site (visitors who ask not to be tracked are never counted).
        </p>
      </div>
    )
  }
  const points = fillBuckets(stats, query)
  return (
    <div className="dashboard-grid">
      <div className="card dashboard-chart">
        <h3>
          Events over time <span className="total">{formatCount(stats.total)} in total</span>
        </h3>
        <EventsChart points={points} bucket={query.bucket} />
        <SeriesTable points={points} bucket={query.bucket} />
      </div>
      <div className="card">
        <RankedTable
          caption="Top events"
          heading="Event"
          rows={eventRows(topEvents(stats))}
          total={stats.total}
        />
      </div>
      <div className="card">
        <RankedTable
          caption="Subdomains"
          heading="Subdomain"
          rows={subdomainRows(stats.subdomains)}
          total={stats.total}
        />
      </div>
    </div>
  )
}

/** Shown to visitors who are not signed in (or whose session ended). */
export function SignedOut() {
  return <SignInFirst what="the analytics" />
}

/** Shown to a signed-in user who is not on the site's team. */
export function NotAllowedHere() {
  return <NotAllowed what="the analytics" />
}
