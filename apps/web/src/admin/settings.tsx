import type { SectionProps } from './console.tsx'
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
      {state.status === 'error' ? <p role="alert">{state.message}</p> : null}
      <div className="table-scroll" tabIndex={0} role="region" aria-label="Table, scrolls sideways">
        <table>
          <caption>Effective settings</caption>
          <thead>
            <tr>
              <th scope="col">Variable</th>
              <th scope="col">Value</th>
              <th scope="col">From</th>
            </tr>
          </thead>
          <tbody>
            {state.status === 'ready'
              ? state.data.results.map((setting) => (
                  <tr key={setting.name}>
                    <th scope="row" className="mono">
                      {setting.name}
                    </th>
                    <td className="mono setting-value">
                      {setting.value}
                      {setting.secret ? <span className="badge">secret, masked</span> : null}
                    </td>
                    <td>{setting.source === 'environment' ? 'Environment' : 'Default'}</td>
                  </tr>
                ))
              : null}
          </tbody>
        </table>
      </div>
    </section>
  )
}
