import { useState } from 'react'
import type { SectionProps } from './section.ts'
import { ConsoleTable } from './console-table.tsx'
import { change, dateTime } from './use-admin.ts'
import { consoleCall, useConsole } from './console-api.ts'

/** The RPC gateway's API keys: the same store and rules as `portico api-key`. */
export function ApiKeys({ client, role }: SectionProps) {
  const { state, reload } = useConsole(client, 'GET /api/admin/api-keys')
  const [label, setLabel] = useState('')
  const [created, setCreated] = useState<{ id: string; key: string }>()
  const [copied, setCopied] = useState(false)
  const [message, setMessage] = useState<string>()

  const create = async () => {
    let answer: { id: string; key: string } | undefined
    const failed = await change(async () => {
      answer = await consoleCall(client, 'POST /api/admin/api-keys', { body: { label } })
    })
    if (failed) return setMessage(failed)
    setCreated(answer)
    setCopied(false)
    setLabel('')
    setMessage(undefined)
    reload()
  }
  const revoke = async (id: string) => {
    const failed = await change(() =>
      consoleCall(client, 'POST /api/admin/api-keys/:keyId/revoke', { params: { keyId: id } }),
    )
    if (!failed && created?.id === id) setCreated(undefined)
    setMessage(failed ?? 'The key was revoked: the gateway refuses it from now on.')
    reload()
  }

  return (
    <section aria-labelledby="keys-heading">
      <h2 id="keys-heading">API keys</h2>
      <p>Keys let servers and scripts use the RPC gateway without a wallet session.</p>
      {role === 'admin' ? (
        <form
          className="console-filters"
          onSubmit={(event) => {
            event.preventDefault()
            void create()
          }}
        >
          <label>
            Label (who or what uses it)
            <input
              value={label}
              required
              maxLength={100}
              onChange={(e) => setLabel(e.target.value)}
            />
          </label>
          <button type="submit">Create key</button>
        </form>
      ) : null}
      {created ? (
        <div className="card new-key" role="status">
          <p>
            <strong>Copy the key now: it is not shown again.</strong>
          </p>
          <p className="console-toolbar">
            <code data-testid="new-api-key">{created.key}</code>
            <button
              type="button"
              onClick={() =>
                navigator.clipboard.writeText(created.key).then(
                  () => setCopied(true),
                  () => setMessage('The browser refused to copy: select the key and copy it.'),
                )
              }
            >
              {copied ? 'Copied' : 'Copy'}
            </button>
          </p>
        </div>
      ) : null}
      {message ? <p role="status">{message}</p> : null}
      <ConsoleTable
        state={state}
        rows={(data) => data.results}
        rowKey={(key) => key.id}
        caption="API keys"
        columns={[
          { header: 'Label', cell: (key) => key.label },
          { header: 'Id', className: 'mono', cell: (key) => key.id },
          { header: 'Created', cell: (key) => dateTime(key.createdAt) },
          {
            header: 'Last used',
            cell: (key) => (key.lastUsedAt ? dateTime(key.lastUsedAt) : 'Never'),
          },
          {
            header: 'State',
            cell: (key) => (key.revokedAt ? `Revoked ${dateTime(key.revokedAt)}` : 'Active'),
          },
          {
            header: 'Actions',
            headerHidden: true,
            cell: (key) =>
              role === 'admin' && !key.revokedAt ? (
                <button
                  type="button"
                  className="button-secondary"
                  aria-label={`Revoke ${key.label}`}
                  onClick={() => revoke(key.id)}
                >
                  Revoke
                </button>
              ) : null,
          },
        ]}
      />
    </section>
  )
}
