import { useRef, useState, type KeyboardEvent } from 'react'
import { editText, parseEdit, type GridColumn } from './field-types.ts'
import { FieldInput } from './field-input.tsx'

export interface CellEditorProps {
  column: GridColumn
  value: unknown
  /** Link to a pointer's target in the browser. */
  pointerHref: (className: string, objectId: string) => string
  /** Uploads a file; resolves to its stored name and URL. */
  upload: (file: File) => Promise<{ name: string; url: string }>
  /** Saves the new value (undefined unsets it); resolves to a problem, or undefined. */
  onSave: (value: unknown) => Promise<string | undefined>
  onCancel: () => void
}

/**
 * The editor of one cell, by its column's type: text, number, true/false, a date picker in local
 * time (its zone named), a pointer's target id (with a link to it), a file upload, latitude and
 * longitude as two labelled fields, a Polygon's points one a line, Bytes as base64, or JSON
 * for arrays and objects. What was typed is checked before anything is sent.
 */
export function CellEditor({
  column,
  value,
  pointerHref,
  upload,
  onSave,
  onCancel,
}: CellEditorProps) {
  const [text, setText] = useState(() => editText(column.type, value))
  const [problem, setProblem] = useState<string>()
  const [busy, setBusy] = useState(false)
  const file = useRef<HTMLInputElement>(null)
  const label = `${column.key} (${column.type})`
  const multiline = column.type === 'array' || column.type === 'object' || column.type === 'polygon'
  const targetClass = column.targetClass ?? (value as { className?: string } | undefined)?.className

  const save = async (next: unknown) => {
    setBusy(true)
    const failed = await onSave(next)
    setBusy(false)
    if (failed) setProblem(failed)
  }
  const submit = async () => {
    if (column.type === 'file') {
      const chosen = file.current?.files?.[0]
      if (!chosen) return setProblem('Choose a file to upload.')
      setBusy(true)
      try {
        const stored = await upload(chosen)
        await save({ __type: 'File', name: stored.name, url: stored.url })
      } catch (error) {
        setBusy(false)
        setProblem((error as { shortMessage?: string }).shortMessage ?? (error as Error).message)
      }
      return
    }
    const parsed = parseEdit(column.type, text, { targetClass })
    if ('problem' in parsed) return setProblem(parsed.problem)
    await save(parsed.value)
  }
  // Keys stay in the editor, not the grid's cell navigation; Escape closes it from any of its
  // controls (the Save and Cancel buttons and the pointer's link too).
  const groupKeys = (event: KeyboardEvent) => {
    event.stopPropagation()
    if (event.key === 'Escape') {
      event.preventDefault()
      onCancel()
    }
  }
  const keys = (event: KeyboardEvent) => {
    if (event.key === 'Enter' && (multiline ? event.ctrlKey || event.metaKey : true)) {
      event.preventDefault()
      void submit()
    }
  }
  const change = (next: string) => {
    setText(next)
    setProblem(undefined)
  }
  const problemId = `cell-problem-${column.key}`
  const common = {
    'aria-label': label,
    'aria-invalid': problem ? true : undefined,
    'aria-describedby': problem ? problemId : undefined,
    autoFocus: true,
    onKeyDown: keys,
  } as const

  const input = (
    <FieldInput
      column={{ ...column, targetClass }}
      text={text}
      onText={change}
      fileRef={file}
      inputProps={common}
    />
  )
  return (
    <div
      className="cell-editor"
      role="group"
      aria-label={`Edit ${column.key}`}
      onKeyDown={groupKeys}
    >
      {input}
      {column.type === 'pointer' && targetClass && text.trim() ? (
        <a href={pointerHref(targetClass, text.trim())}>Open {targetClass}</a>
      ) : null}
      {multiline ? <span className="muted hint">Ctrl+Enter saves</span> : null}
      <span className="cell-editor-actions">
        <button type="button" disabled={busy} onClick={() => void submit()}>
          Save
        </button>
        <button type="button" className="button-secondary" onClick={onCancel}>
          Cancel
        </button>
      </span>
      {problem ? (
        <span id={problemId} role="alert" className="console-problem">
          {problem}
        </span>
      ) : null}
    </div>
  )
}
