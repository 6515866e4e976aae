import { useRef, useState, type KeyboardEvent } from 'react'
import { editText, parseEdit, type GridColumn } from './field-types.ts'

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

  let input
  switch (column.type) {
    case 'boolean':
      input = (
        <select {...common} value={text} onChange={(e) => change(e.target.value)}>
          <option value="">(not set)</option>
          <option value="true">true</option>
          <option value="false">false</option>
        </select>
      )
      break
    case 'date':
      input = (
        <>
          <input
            {...common}
            className="date-input"
            type="datetime-local"
            step="1"
            value={text}
            onChange={(e) => change(e.target.value)}
          />
          <span className="muted hint">{zoneName()} time</span>
        </>
      )
      break
    case 'geopoint': {
      const [lat = '', lng = ''] = text.split(',').map((part) => part.trim())
      const set = (nextLat: string, nextLng: string) => change(`${nextLat}, ${nextLng}`)
      input = (
        <span className="geo-fields">
          <label>
            Latitude
            <input
              {...common}
              aria-label={undefined}
              inputMode="decimal"
              value={lat}
              onChange={(e) => set(e.target.value, lng)}
            />
          </label>
          <label>
            Longitude
            <input
              {...common}
              aria-label={undefined}
              autoFocus={false}
              inputMode="decimal"
              value={lng}
              onChange={(e) => set(lat, e.target.value)}
            />
          </label>
        </span>
      )
      break
    }
    case 'file':
      input = <input {...common} ref={file} type="file" onChange={() => setProblem(undefined)} />
      break
    case 'array':
    case 'object':
    case 'polygon':
      input = (
        <textarea
          {...common}
          className="mono"
          placeholder={
            column.type === 'polygon' ? 'latitude, longitude (one point a line)' : undefined
          }
          rows={4}
          value={text}
          onChange={(e) => change(e.target.value)}
        />
      )
      break
    default:
      input = (
        <input
          {...common}
          inputMode={column.type === 'number' ? 'decimal' : undefined}
          className={column.type === 'bytes' ? 'mono' : undefined}
          placeholder={
            column.type === 'pointer'
              ? `${targetClass ?? ''} object id`
              : column.type === 'bytes'
                ? 'base64'
                : undefined
          }
          value={text}
          onChange={(e) => change(e.target.value)}
        />
      )
  }
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

/** This browser's time zone, by name (`Europe/Paris`): the date picker's times are in it. */
function zoneName(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'Local'
}
