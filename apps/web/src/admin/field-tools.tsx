import { useState } from 'react'
import type { BackendClient } from '@portico/sdk/backend'
import { FIELD_TYPES, TYPE_LABEL, isName, type GridColumn } from './field-types.ts'
import { change } from './use-admin.ts'
import { consoleCall } from './console-api.ts'

/**
 * Adds a column to a class (a name and a type; pointers and relations name their class) and
 * removes a field from every object of it, after a confirmation.
 */
export function FieldTools({
  client,
  className,
  columns,
  onChanged,
}: {
  client: BackendClient
  className: string
  columns: readonly GridColumn[]
  onChanged: (message: string) => void
}) {
  const [name, setName] = useState('')
  const [type, setType] = useState<(typeof FIELD_TYPES)[number]>('string')
  const [target, setTarget] = useState('')
  const [removing, setRemoving] = useState('')
  const [confirming, setConfirming] = useState(false)
  const [problem, setProblem] = useState<string>()
  const fields = columns.filter((column) => !column.builtIn)
  const targeted = type === 'pointer' || type === 'relation'

  const add = async () => {
    const trimmed = name.trim()
    if (!isName(trimmed))
      return setProblem(
        'A field name starts with a letter and has only letters, digits and _ (at most 64).',
      )
    if (columns.some((column) => column.key === trimmed))
      return setProblem(`${className} already has a field ${trimmed}.`)
    if (targeted && !target.trim()) return setProblem(`Say which class the ${type} points to.`)
    const failed = await change(() =>
      consoleCall(client, 'POST /api/admin/classes/:className/fields', {
        params: { className },
        body: { name: trimmed, type, ...(targeted ? { targetClass: target.trim() } : {}) },
      }),
    )
    if (failed) return setProblem(failed)
    setName('')
    setTarget('')
    onChanged(`The field ${trimmed} (${TYPE_LABEL[type]}) was added to ${className}.`)
  }
  const remove = async () => {
    setConfirming(false)
    let changed = 0
    const failed = await change(async () => {
      ;({ changed } = await consoleCall(
        client,
        'DELETE /api/admin/classes/:className/fields/:field',
        { params: { className, field: removing } },
      ))
    })
    if (failed) return setProblem(failed)
    onChanged(
      `The field ${removing} was removed from ${changed} object${changed === 1 ? '' : 's'} of ${className}.`,
    )
    setRemoving('')
  }

  return (
    <section className="card field-tools" aria-labelledby="fields-heading">
      <h3 id="fields-heading">Fields of {className}</h3>
      <form
        className="console-filters"
        onSubmit={(event) => {
          event.preventDefault()
          void add()
        }}
      >
        <label>
          New field name
          <input
            value={name}
            onChange={(event) => {
              setName(event.target.value)
              setProblem(undefined)
            }}
          />
        </label>
        <span className="field-label">
          <label htmlFor="new-field-type">Type</label>
          <select
            id="new-field-type"
            value={type}
            onChange={(event) => setType(event.target.value as (typeof FIELD_TYPES)[number])}
          >
            {FIELD_TYPES.map((t) => (
              <option key={t} value={t}>
                {TYPE_LABEL[t]}
              </option>
            ))}
          </select>
        </span>
        {targeted ? (
          <label>
            Target class
            <input value={target} onChange={(event) => setTarget(event.target.value)} />
          </label>
        ) : null}
        <button type="submit">Add field</button>
      </form>
      {fields.length ? (
        <div className="console-filters">
          <span className="field-label">
            <label htmlFor="remove-field">Field to remove</label>
            <select
              id="remove-field"
              value={removing}
              onChange={(event) => {
                setRemoving(event.target.value)
                setConfirming(false)
              }}
            >
              <option value="">Choose a field</option>
              {fields.map((column) => (
                <option key={column.key} value={column.key}>
                  {column.key}
                </option>
              ))}
            </select>
          </span>
          {confirming ? (
            <span role="group" aria-label="Confirm removal" className="confirm">
              <strong>
                Remove {removing} from every object of {className}?
              </strong>
              <button type="button" className="danger" onClick={() => void remove()}>
                Yes, remove
              </button>
              <button
                type="button"
                className="button-secondary"
                onClick={() => setConfirming(false)}
              >
                Keep it
              </button>
            </span>
          ) : (
            <button
              type="button"
              className="button-secondary"
              disabled={!removing}
              onClick={() => setConfirming(true)}
            >
              Remove field…
            </button>
          )}
        </div>
      ) : null}
      {problem ? (
        <p role="alert" className="console-problem">
          {problem}
        </p>
      ) : null}
    </section>
  )
}
