import type { SectionProps } from './section.ts'
import { ConsoleTable } from './console-table.tsx'
import { useConsole } from './console-api.ts'

const MASK = '••••••••'

/**
 * A value with every URL's credentials, path and query hidden, as the server hides them: done
 * here too, so a setting the server does not know holds a URL cannot show a provider's key.
 */
export function maskUrls(value: string): string {
  return value.replace(
    /\b([a-z][a-z0-9+.-]*:\/\/)([^\s,]+)/gi,
    (_all, scheme: string, rest: string) => {
      const at = rest.lastIndexOf('@', rest.search(/[/?#]|$/))
      const credentials = at >= 0
      const afterAt = credentials ? rest.slice(at + 1) : rest
      const cut = afterAt.search(/[/?#]/)
      const host = cut < 0 ? afterAt : afterAt.slice(0, cut)
      const tail = cut < 0 ? '' : afterAt.slice(cut).replace(/^\/+$/, '')
      const hidden = tail !== '' && tail !== `/${MASK}`
      return `${scheme}${credentials ? `${MASK}@` : ''}${host}${hidden || tail === `/${MASK}` ? `/${MASK}` : ''}`
    },
  )
}

/** The server's effective configuration; secrets never leave the server. */
export function Settings({ client }: SectionProps) {
  const { state } = useConsole(client, 'GET /api/admin/settings')
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
                {maskUrls(setting.value)}
                {maskUrls(setting.value).includes(MASK) ? (
                  <span className="badge">secret, masked</span>
                ) : setting.secret ? (
                  <span className="badge">secret when set</span>
                ) : null}
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
