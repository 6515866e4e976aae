import { Dashboard } from '../analytics/dashboard.tsx'
import '../analytics/analytics.css'
import type { SectionProps } from './section.ts'
import { ConsoleTable } from './console-table.tsx'
import { bytes } from './use-admin.ts'
import { useConsole } from './console-api.ts'

/** Counts at a glance, then the events chart of the analytics page. */
export function Overview({ client }: SectionProps) {
  const { state } = useConsole(client, 'GET /api/admin/overview')
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
          <ConsoleTable
            state={state}
            rows={(data) => data.classes}
            rowKey={(c) => c.className}
            caption="Objects by class"
            alert={false}
            columns={[
              { header: 'Class', cell: (c) => c.className },
              { header: 'Objects', numeric: true, cell: (c) => c.count },
            ]}
          />
        </>
      )}
      <h3>Events</h3>
      <Dashboard client={client} />
    </section>
  )
}
