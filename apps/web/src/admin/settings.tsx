import type { SectionProps } from './console.tsx'
import { ConsoleTable } from './console-table.tsx'
import { useAdmin } from './use-admin.ts'

interface Setting {
  name: string
  value: string
  source: 'environment' | 'default'
  secret: boolean
}

/** The server's effective configuration; secrets never leave the server. */
export function Settings({ client }: SectionProps) {
  const { state } = useAdmin<{ results: Setting[] }>(client, 'settings')
  return (
    <section aria-labelledby="settings-heading">
      <h2 id="settings-heading">Settings</h2>
      <p>
        What this server runs with. Settings are changed in its environment, then the server is
        restarted.
      </p>
      <ConsoleTable
        state={state}
        rows={(data) => data.results}
        rowKey={(setting) => setting.name}
        caption="Effective settings"
        columns={[
          {
            header: 'Variable',
            rowHeader: true,
            className: 'mono',
            cell: (setting) => setting.name,
          },
          {
            header: 'Value',
            className: 'mono setting-value',
            cell: (setting) => (
              <>
                {setting.value}
                {setting.secret ? <span className="badge">secret, masked</span> : null}
              </>
            ),
          },
          {
            header: 'From',
            cell: (setting) => (setting.source === 'environment' ? 'Environment' : 'Default'),
          },
        ]}
      />
    </section>
  )
}
