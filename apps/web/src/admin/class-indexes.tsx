import { useState } from 'react'
import type { BackendClient } from '@portico/sdk/backend'
import { bytes, change, dateTime } from './use-admin.ts'
import { consoleCall, useConsole } from './console-api.ts'

/**
 * The indexes the server built for a class's queries, with how often each is read; an admin
 * removes one the class no longer needs (every write to the class pays for it).
 */
export function ClassIndexes({
  client,
  className,
  readOnly,
}: {
  client: BackendClient
  className: string
  readOnly: boolean
}) {
  const { state, reload } = useConsole(client, 'GET /api/admin/classes/:className/indexes', {
    params: { className },
  })
  const [problem, setProblem] = useState<string>()
  const remove = async (field: string) => {
    const failed = await change(() =>
      consoleCall(client, 'DELETE /api/admin/classes/:className/indexes/:field', {
        params: { className, field },
      }),
    )
    setProblem(failed)
    reload()
  }
  const indexes = state.status === 'ready' ? state.data.indexes : []
  return (
    <section className="card" aria-labelledby="indexes-heading">
      <h3 id="indexes-heading">Indexes of {className}</h3>
      {problem ? <p role="alert">{problem}</p> : null}
      {indexes.length === 0 ? (
        <p>None yet: the server builds one for fields this class is often queried on.</p>
      ) : (
        <table className="console-table">
          <thead>
            <tr>
              <th scope="col">Fields</th>
              <th scope="col">Reads</th>
              <th scope="col">Size</th>
              <th scope="col">Built</th>
              {readOnly ? null : <th scope="col">Remove</th>}
            </tr>
          </thead>
          <tbody>
            {indexes.map((index) => (
              <tr key={index.field}>
                <td>{index.field.replace('|', ' then ')}</td>
                <td>{index.scans.toLocaleString('en')}</td>
                <td>{bytes(index.bytes)}</td>
                <td>{dateTime(index.createdAt)}</td>
                {readOnly ? null : (
                  <td>
                    <button
                      type="button"
                      className="button-secondary"
                      aria-label={`Remove the index on ${index.field}`}
                      onClick={() => void remove(index.field)}
                    >
                      Remove
                    </button>
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  )
}
