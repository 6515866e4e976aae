import { Dashboard } from '../analytics/dashboard.tsx'
import '../analytics/analytics.css'
import type { SectionProps } from './console.tsx'
import { bytes, useAdmin } from './use-admin.ts'

interface OverviewData {
  users: number
  activeSessions: number
  classes: { className: string; count: number }[]
  files: { count: number; bytes: number }
  eventsToday: number
}

/** Counts at a glance, then the events chart of the analytics page. */
export function Overview({ client }: SectionProps) {
  const { state } = useAdmin<OverviewData>(client, 'overview')
  return (
    <section aria-labelledby="overview-heading">
      <h2 id="overview-heading">Overview</h2>
      {state.status === 'loading' ? (
        <p>Loading…</p>
      ) : state.status === 'error' ? (
        <p role="alert">{state.message}</p>
      ) : (
        <>
          <dl className="console-stats">
            <div>
              <dt>Users</dt>
              <dd>{state.data.users}</dd>
            </div>
            <div>
              <dt>Active sessions</dt>
              <dd>{state.data.activeSessions}</dd>
            </div>
            <div>
              <dt>Objects</dt>
              <dd>{state.data.classes.reduce((sum, c) => sum + c.count, 0)}</dd>
            </div>
            <div>
              <dt>Files</dt>
              <dd>
                {state.data.files.count} ({bytes(state.data.files.bytes)})
              </dd>
            </div>
            <div>
              <dt>Events today</dt>
              <dd>{state.data.eventsToday}</dd>
            </div>
          </dl>
          <div
            className="table-scroll"
            tabIndex={0}
            role="region"
            aria-label="Table, scrolls sideways"
          >
            <table>
              <caption>Objects by class</caption>
              <thead>
                <tr>
                  <th scope="col">Class</th>
                  <th scope="col" className="numeric">
                    Objects
                  </th>
                </tr>
              </thead>
              <tbody>
                {state.data.classes.map((c) => (
                  <tr key={c.className}>
                    <td>{c.className}</td>
                    <td className="numeric">{c.count}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
      <h3>Events</h3>
      <Dashboard client={client} />
    </section>
  )
}
