import { useState } from 'react'
import type { BackendClient } from '@portico/sdk/backend'
import type { ConsoleBody } from '@portico/sdk/wire'
import { FIELD_TYPES, TYPE_LABEL, isName, type DeclaredField } from './field-types.ts'
import { change } from './use-admin.ts'
import { consoleCall } from './console-api.ts'
import { CreateCard } from './create-card.tsx'

interface FirstField {
  /** Stable across edits (React's key). */
  id: number
  name: string
  type: DeclaredField['type']
  targetClass: string
}

let lastId = 0
const newField = (): FirstField => ({ id: ++lastId, name: '', type: 'string', targetClass: '' })

/** What the form says, as the server takes it, or the first thing wrong with it. */
function bodyOf(
  name: string,
  fields: readonly FirstField[],
  known: readonly string[],
): { body: ConsoleBody<'POST /api/admin/classes'> } | { problem: string } {
  if (!isName(name))
    return {
      problem:
        'A class name starts with a letter and has only letters, digits and _ (at most 64): e.g. Planet or Order_item.',
    }
  if (known.includes(name))
    return { problem: `${name} exists already: pick it in the class list, or choose another name.` }
  const declared: Record<string, DeclaredField> = {}
  for (const [i, field] of fields.entries()) {
    const n = `Field ${i + 1}`
    const fieldName = field.name.trim()
    if (!isName(fieldName))
      return {
        problem: `${n}: a field name starts with a letter and has only letters, digits and _ (at most 64).`,
      }
    if (declared[fieldName]) return { problem: `${n}: ${fieldName} is named twice; rename one.` }
    const targeted = field.type === 'pointer' || field.type === 'relation'
    if (targeted && !field.targetClass.trim())
      return { problem: `${n}: say which class the ${field.type} ${fieldName} points to.` }
    declared[fieldName] = targeted
      ? { type: field.type, targetClass: field.targetClass.trim() }
      : { type: field.type }
  }
  return { body: { name, ...(fields.length ? { fields: declared } : {}) } }
}

/**
 * Creates a class from a name and its first fields (each with a type; pointers and relations
 * name their class), checked as the server checks them before anything is sent.
 */
export function CreateClass({
  client,
  known,
  onCreated,
}: {
  client: BackendClient
  /** The classes there are: a name among them is refused before it is sent. */
  known: readonly string[]
  onCreated: (className: string) => void
}) {
  const [open, setOpen] = useState(false)
  const [name, setName] = useState('')
  const [fields, setFields] = useState<FirstField[]>([])
  const [problem, setProblem] = useState<string>()
  const [busy, setBusy] = useState(false)
  const edit = (id: number, next: Partial<FirstField>) => {
    setFields(fields.map((field) => (field.id === id ? { ...field, ...next } : field)))
    setProblem(undefined)
  }
  const close = () => {
    setOpen(false)
    setName('')
    setFields([])
    setProblem(undefined)
  }
  const create = async () => {
    const trimmed = name.trim()
    const sent = bodyOf(trimmed, fields, known)
    if ('problem' in sent) return setProblem(sent.problem)
    setBusy(true)
    const failed = await change(() => consoleCall(client, 'POST /api/admin/classes', sent))
    setBusy(false)
    if (failed) return setProblem(failed)
    close()
    onCreated(trimmed)
  }

  return (
    <CreateCard
      id="new-class"
      opener="Create class…"
      heading="New class"
      submit="Create class"
      open={open}
      busy={busy}
      problem={problem}
      onOpen={() => setOpen(true)}
      onSubmit={() => void create()}
      onCancel={close}
    >
      <label className="stacked">
        Class name
        <input
          value={name}
          autoFocus
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? 'new-class-problem' : 'new-class-rule'}
          onChange={(event) => {
            setName(event.target.value)
            setProblem(undefined)
          }}
        />
      </label>
      <p id="new-class-rule" className="muted hint">
        A letter, then letters, digits and _ (at most 64).
      </p>
      {fields.length ? (
        <ol className="first-fields">
          {fields.map((field, i) => {
            const n = `Field ${i + 1}`
            const targeted = field.type === 'pointer' || field.type === 'relation'
            return (
              <li key={field.id} className="console-filters">
                <label>
                  {n} name
                  <input
                    value={field.name}
                    onChange={(event) => edit(field.id, { name: event.target.value })}
                  />
                </label>
                <label>
                  {n} type
                  <select
                    value={field.type}
                    onChange={(event) =>
                      edit(field.id, { type: event.target.value as FirstField['type'] })
                    }
                  >
                    {FIELD_TYPES.map((type) => (
                      <option key={type} value={type}>
                        {TYPE_LABEL[type]}
                      </option>
                    ))}
                  </select>
                </label>
                {targeted ? (
                  <label>
                    {n} target class
                    <input
                      value={field.targetClass}
                      onChange={(event) => edit(field.id, { targetClass: event.target.value })}
                    />
                  </label>
                ) : null}
                <button
                  type="button"
                  className="button-secondary"
                  onClick={() => setFields(fields.filter((other) => other.id !== field.id))}
                >
                  Remove field {i + 1}
                </button>
              </li>
            )
          })}
        </ol>
      ) : (
        <p className="muted">No fields yet: add some now, or later under the class's fields.</p>
      )}
      <p className="console-toolbar">
        <button
          type="button"
          className="button-secondary"
          onClick={() => setFields([...fields, newField()])}
        >
          Add a field
        </button>
      </p>
    </CreateCard>
  )
}
