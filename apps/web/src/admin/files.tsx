import { useState } from 'react'
import type { SectionProps } from './section.ts'
import { ConsoleTable } from './console-table.tsx'
import { bytes, change, dateTime, ownerName } from './use-admin.ts'
import { consoleCall, useConsole } from './console-api.ts'

/** Types a browser only renders as a picture: previewed (the server serves them inert). */
const PREVIEWED = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif'])

export function Files({ client, role }: SectionProps) {
  const { state, reload } = useConsole(client, 'GET /api/admin/files')
  const [confirming, setConfirming] = useState<string>()
  const [message, setMessage] = useState<string>()
  const remove = async (name: string) => {
    const failed = await change(() =>
      consoleCall(client, 'DELETE /api/admin/files/:name', { params: { name } }),
    )
    setConfirming(undefined)
    setMessage(failed ?? `${name.slice(17)} was deleted.`)
    reload()
  }
  return (
    <section aria-labelledby="files-heading">
      <h2 id="files-heading">Files</h2>
      {message ? <p role="status">{message}</p> : null}
      <ConsoleTable
        state={state}
        rows={(data) => data.results}
        rowKey={(file) => file.name}
        caption="Files"
        empty="No files yet."
        columns={[
          {
            header: 'Preview',
            cell: (file) =>
              PREVIEWED.has(file.contentType) ? (
                <img
                  className="file-preview"
                  src={client.url(`/api/files/${encodeURIComponent(file.name)}`)}
                  alt={`Preview of ${file.name.slice(17)}`}
                  loading="lazy"
                />
              ) : null,
          },
          {
            header: 'Name',
            cell: (file) => (
              <a href={client.url(`/api/files/${encodeURIComponent(file.name)}`)}>
                {file.name.slice(17)}
              </a>
            ),
          },
          {
            header: 'Owner',
            className: 'address',
            // A user who signs in without a wallet has no address: their id stands for it.
            title: (file) => file.owner ?? file.ownerId,
            cell: (file) => (file.owner === null ? file.ownerId : ownerName(file.owner)),
          },
          { header: 'Type', cell: (file) => file.contentType },
          { header: 'Size', numeric: true, cell: (file) => bytes(file.size) },
          {
            header: 'Kept in',
            cell: (file) => (file.storage === 's3' ? 'S3 store' : 'Database'),
          },
          { header: 'Uploaded', cell: (file) => dateTime(file.createdAt) },
          {
            header: 'Actions',
            headerHidden: true,
            cell: (file) =>
              role !== 'admin' ? null : confirming === file.name ? (
                <span role="group" aria-label="Confirm deletion" className="confirm">
                  <button type="button" className="danger" onClick={() => remove(file.name)}>
                    Yes, delete
                  </button>
                  <button
                    type="button"
                    className="button-secondary"
                    onClick={() => setConfirming(undefined)}
                  >
                    Keep it
                  </button>
                </span>
              ) : (
                <button
                  type="button"
                  className="button-secondary"
                  aria-label={`Delete ${file.name.slice(17)}`}
                  onClick={() => setConfirming(file.name)}
                >
                  Delete…
                </button>
              ),
          },
        ]}
      />
    </section>
  )
}
