import { useState } from 'react'
import type { SectionProps } from './console.tsx'
import { bytes, change, dateTime, shortAddress, useAdmin } from './use-admin.ts'

interface FileRow {
  name: string
  owner: string
  contentType: string
  size: number
  storage: 'database' | 's3'
  createdAt: string
}

/** Types a browser only renders as a picture: previewed (the server serves them inert). */
const PREVIEWED = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif'])

export function Files({ client, role }: SectionProps) {
  const { state, reload } = useAdmin<{ results: FileRow[] }>(client, 'files')
  const [confirming, setConfirming] = useState<string>()
  const [message, setMessage] = useState<string>()
  const remove = async (name: string) => {
    const failed = await change(() =>
      client.request('DELETE', `/api/admin/files/${encodeURIComponent(name)}`),
    )
    setConfirming(undefined)
    setMessage(failed ?? `${name.slice(17)} was deleted.`)
    reload()
  }
  return (
    <section aria-labelledby="files-heading">
      <h2 id="files-heading">Files</h2>
      {message ? <p role="status">{message}</p> : null}
      {state.status === 'error' ? <p role="alert">{state.message}</p> : null}
      {state.status === 'ready' && state.data.results.length === 0 ? <p>No files yet.</p> : null}
      <div className="table-scroll" tabIndex={0} role="region" aria-label="Table, scrolls sideways">
        <table>
          <caption>Files</caption>
          <thead>
            <tr>
              <th scope="col">Preview</th>
              <th scope="col">Name</th>
              <th scope="col">Owner</th>
              <th scope="col">Type</th>
              <th scope="col" className="numeric">
                Size
              </th>
              <th scope="col">Kept in</th>
              <th scope="col">Uploaded</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {state.status === 'ready'
              ? state.data.results.map((file) => (
                  <tr key={file.name}>
                    <td>
                      {PREVIEWED.has(file.contentType) ? (
                        <img
                          className="file-preview"
                          src={client.url(`/api/files/${encodeURIComponent(file.name)}`)}
                          alt={`Preview of ${file.name.slice(17)}`}
                          loading="lazy"
                        />
                      ) : null}
                    </td>
                    <td>
                      <a href={client.url(`/api/files/${encodeURIComponent(file.name)}`)}>
                        {file.name.slice(17)}
                      </a>
                    </td>
                    <td className="address" title={file.owner}>
                      {shortAddress(file.owner)}
                    </td>
                    <td>{file.contentType}</td>
                    <td className="numeric">{bytes(file.size)}</td>
                    <td>{file.storage === 's3' ? 'S3 store' : 'Database'}</td>
                    <td>{dateTime(file.createdAt)}</td>
                    <td>
                      {role !== 'admin' ? null : confirming === file.name ? (
                        <span role="group" aria-label="Confirm deletion" className="confirm">
                          <button
                            type="button"
                            className="danger"
                            onClick={() => remove(file.name)}
                          >
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
