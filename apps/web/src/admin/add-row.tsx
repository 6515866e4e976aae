import { createRef, useRef, useState, type RefObject } from 'react'
import type { BackendClient } from '@portico/sdk/backend'
import { AclEditor } from './acl-editor.tsx'
import { CreateCard } from './create-card.tsx'
import { aclOfDraft, draftOf, type AclDraft } from './acl-form.ts'
import { FieldInput } from './field-input.tsx'
import { TYPE_LABEL, parseEdit, type GridColumn } from './field-types.ts'
import { change } from './use-admin.ts'
import { consoleCall } from './console-api.ts'
import type { ConsoleObject } from './object-editor.tsx'

/** What the form's values make, or the first that cannot be stored and why. */
type Read = { data: Record<string, unknown> } | { field: string; problem: string }

/** A new row's access to start from, as a role made in the console: everyone reads it, only the console changes it. */
const firstAccess = (): AclDraft => draftOf({ '*': { read: true } })

/**
 * Adds an object to a class: one input per field, each the editor its type has in the grid
 * (checked the same way before anything is sent; a field left empty is not set), and its ACL.
 */
export function AddRow({
  client,
  className,
  columns,
  upload,
  onCreated,
}: {
  client: BackendClient
  className: string
  columns: readonly GridColumn[]
  /** Uploads a file; resolves to its stored name and URL. */
  upload: (file: File) => Promise<{ name: string; url: string }>
  onCreated: (object: ConsoleObject) => void
}) {
  const [open, setOpen] = useState(false)
  const [texts, setTexts] = useState<Record<string, string>>({})
  const [access, setAccess] = useState(firstAccess)
  const [problem, setProblem] = useState<{ field?: string; text: string }>()
  const [busy, setBusy] = useState(false)
  const files = useRef<Record<string, RefObject<HTMLInputElement | null>>>({})
  const fileRef = (key: string) => (files.current[key] ??= createRef())
  const fields = columns.filter((column) => !column.builtIn && !column.readOnly)

  const close = () => {
    setOpen(false)
    setTexts({})
    setAccess(firstAccess())
    setProblem(undefined)
  }
  const read = async (): Promise<Read> => {
    const data: Record<string, unknown> = {}
    for (const column of fields) {
      const text = texts[column.key] ?? ''
      if (column.type === 'file') {
        const chosen = fileRef(column.key).current?.files?.[0]
        if (chosen) {
          const stored = await upload(chosen)
          data[column.key] = { __type: 'File', name: stored.name, url: stored.url }
        }
        continue
      }
      if (text === '') continue
      const parsed = parseEdit(column.type, text, { targetClass: column.targetClass })
      if ('problem' in parsed) return { field: column.key, problem: parsed.problem }
      if (parsed.value !== undefined) data[column.key] = parsed.value
    }
    return { data }
  }
  const create = async () => {
    const acl = aclOfDraft(access)
    if ('problem' in acl) return setProblem({ text: acl.problem })
    setBusy(true)
    // Files are uploaded as the values are read: a failed upload is said like a refused save.
    let made: ConsoleObject | undefined
    let wrong: { field: string; problem: string } | undefined
    const failed = await change(async () => {
      const checked = await read()
      if ('problem' in checked) return (wrong = checked)
      made = await consoleCall(client, 'POST /api/admin/classes/:className', {
        params: { className },
        body: { data: checked.data, acl: acl.acl },
      })
    })
    setBusy(false)
    const bad = wrong as { field: string; problem: string } | undefined
    if (bad) return setProblem({ field: bad.field, text: `${bad.field}: ${bad.problem}` })
    if (failed || !made) return setProblem({ text: failed ?? 'Nothing was saved.' })
    close()
    onCreated(made)
  }

  return (
    <CreateCard
      id="new-row"
      opener="Add row…"
      heading={`New ${className} row`}
      submit="Save row"
      open={open}
      busy={busy}
      problem={problem?.text}
      onOpen={() => setOpen(true)}
      onSubmit={() => void create()}
      onCancel={close}
    >
      {fields.length ? null : (
        <p className="muted">
          {className} has no fields yet: add one under its fields, or save a row with none.
        </p>
      )}
      {fields.map((column) => {
        const labelId = `new-row-${column.key}`
        const wrong = problem?.field === column.key
        return (
          <div key={column.key} role="group" aria-labelledby={labelId} className="new-row-field">
            <span id={labelId} className="field-label">
              {column.key}{' '}
              <span className="muted">
                {TYPE_LABEL[column.type]}
                {column.targetClass ? ` to ${column.targetClass}` : ''}
              </span>
            </span>
            <FieldInput
              column={column}
              text={texts[column.key] ?? ''}
              onText={(text) => {
                setTexts({ ...texts, [column.key]: text })
                setProblem(undefined)
              }}
              fileRef={fileRef(column.key)}
              inputProps={{
                'aria-label': `${column.key} (${TYPE_LABEL[column.type]})`,
                'aria-invalid': wrong ? true : undefined,
                'aria-describedby': wrong ? 'new-row-problem' : undefined,
              }}
            />
          </div>
        )
      })}
      <AclEditor
        draft={access}
        readOnly={false}
        onChange={(draft) => {
          setAccess(draft)
          setProblem(undefined)
        }}
      />
    </CreateCard>
  )
}
