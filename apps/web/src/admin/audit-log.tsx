import type { SectionProps } from './console.tsx'
import { dateTime, useAdmin } from './use-admin.ts'

interface Entry {
  id: number
  at: string
  actor: string
  action: string
  target: string
  before: unknown
  after: unknown
}

/** Every change made from the console, newest first. It is kept for good: nothing here deletes. */
export function AuditLog({ client }: SectionProps) {
  const { state } = useAdmin<{ results: Entry[] }>(client, 'audit', { limit: '100' })
  return (
    <section aria-labelledby="audit-heading">
      <h2 id="audit-heading">Audit log</h2>
      {state.status === 'error' ? <p role="alert">{state.message}</p> : null}
      {state.status === 'ready' && state.data.results.length === 0 ? (
        <p>Nothing has been changed from the console yet.</p>
      ) : null}
      <div className="table-scroll" tabIndex={0} role="region" aria-label="Table, scrolls sideways">
        <table>
          <caption>Console changes, newest first</caption>
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Who</th>
              <th scope="col">What</th>
              <th scope="col">On</th>
              <th scope="col">Before and after</th>
            </tr>
          </thead>
          <tbody>
            {state.status === 'ready'
              ? state.data.results.map((entry) => (
                  <tr key={entry.id}>
                    <td>{dateTime(entry.at)}</td>
                    <td className="address">{entry.actor}</td>
                    <td className="mono action">{entry.action}</td>
                    <td className="mono">{entry.target}</td>
                    <td>
                      {entry.before || entry.after ? (
                        <details>
                          <summary>Show</summary>
                          <pre className="mono">
                            {JSON.stringify({ before: entry.before, after: entry.after }, null, 2)}
                          </pre>
                        </details>
                      ) : (
                        '—'
                      )}
                    </td>
                  </tr>
                ))
              : null}
          </tbody>
        </table>
      </div>
    </section>
  )
}
