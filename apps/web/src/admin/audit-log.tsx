import { placeholderLabel } from '@portico/sdk/wire'
import type { SectionProps } from './section.ts'
import { ConsoleTable } from './console-table.tsx'
import { dateTime } from './use-admin.ts'
import { useConsole } from './console-api.ts'

/** Every change made from the console, newest first. It is kept for good: nothing here deletes. */
export function AuditLog({ client }: SectionProps) {
  const { state } = useConsole(client, 'GET /api/admin/audit', { query: { limit: '100' } })
  return (
    <section aria-labelledby="audit-heading">
      <h2 id="audit-heading">Audit log</h2>
      <ConsoleTable
        state={state}
        rows={(data) => data.results}
        rowKey={(entry) => entry.id}
        caption="Console changes, newest first"
        empty="Nothing has been changed from the console yet."
        columns={[
          { header: 'When', cell: (entry) => dateTime(entry.at) },
          {
            header: 'Who',
            className: 'address',
            cell: (entry) => placeholderLabel(entry.actor) ?? entry.actor,
          },
          { header: 'What', className: 'mono action', cell: (entry) => entry.action },
          { header: 'On', className: 'mono', cell: (entry) => entry.target },
          {
            header: 'Before and after',
            cell: (entry) =>
              entry.before || entry.after ? (
                <details>
                  <summary>Show</summary>
                  <pre className="mono">
                    {JSON.stringify({ before: entry.before, after: entry.after }, null, 2)}
                  </pre>
                </details>
              ) : (
                '—'
              ),
          },
        ]}
      />
    </section>
  )
}
