import {
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
  type KeyboardEvent,
  type PointerEvent as ReactPointerEvent,
} from 'react'
import { CellEditor } from './cell-editor.tsx'
import { cellText, localDateTime, TYPE_LABEL, typeOfValue, type GridColumn } from './field-types.ts'
import { MAX_WIDTH, MIN_WIDTH, useGridPrefs } from './grid-prefs.ts'
import type { ConsoleObject } from './object-editor.tsx'

/** The row's select box, then its Open button, come before the cells in keyboard order. */
const FIRST_COL = -2

const DEFAULT_WIDTH: Record<string, number> = { objectId: 150, createdAt: 200, updatedAt: 200 }
const widthOf = (column: GridColumn) =>
  DEFAULT_WIDTH[column.key] ??
  (column.type === 'array' || column.type === 'object' ? 220 : column.type === 'acl' ? 170 : 160)

export interface DataGridProps {
  className: string
  columns: readonly GridColumn[]
  objects: readonly ConsoleObject[]
  /** `-score` or `score`: the current sort. */
  order: string
  onOrder: (order: string) => void
  selected: ReadonlySet<string>
  onSelect: (ids: string[], selected: boolean) => void
  readOnly: boolean
  onSave: (object: ConsoleObject, field: string, value: unknown) => Promise<string | undefined>
  upload: (file: File) => Promise<{ name: string; url: string }>
  onOpen: (object: ConsoleObject) => void
  pointerHref: (className: string, objectId: string) => string
}

/** A cell's value: a document field, or the object's own columns. */
function valueAt(object: ConsoleObject, column: GridColumn): unknown {
  if (!column.builtIn) return object.data[column.key]
  if (column.key === 'createdAt' || column.key === 'updatedAt')
    return { __type: 'Date', iso: object[column.key] }
  if (column.key === 'ACL') return object.acl
  return object.objectId
}

function aclSummary(object: ConsoleObject): string {
  const entries = Object.entries(object.acl)
  const pub = object.acl['*']
  const parts = [pub?.read ? (pub.write ? 'Public read and write' : 'Public read') : 'Not public']
  const users = entries.filter(([key]) => key !== '*' && !key.startsWith('role:')).length
  const roles = entries.filter(([key]) => key.startsWith('role:')).length
  if (users) parts.push(`${users} user${users === 1 ? '' : 's'}`)
  if (roles) parts.push(`${roles} role${roles === 1 ? '' : 's'}`)
  return parts.join(', ')
}

/**
 * The data browser's grid: one column per field with its type in the header, sorted by a click
 * on a header, columns resized (dragged, or arrow keys on the handle) and hidden, both kept per
 * class in this browser. The header row is one tab stop (arrow keys move along it, Shift with an
 * arrow changes a column's width), and so are the rows: arrow keys, Home and End move between the
 * cells and each row's select box and Open button, Enter or F2 edits a cell, Escape leaves its
 * editor. So the keyboard reaches the first cell in two stops, and leaves the grid in one more,
 * whatever the page's size. Wider than its frame, the grid scrolls inside it, and says so.
 */
export function DataGrid(props: DataGridProps) {
  const { className, columns, objects, order, selected, readOnly } = props
  const { prefs, setWidth, setHidden } = useGridPrefs(className)
  const shown = columns.filter((column) => !prefs.hidden.includes(column.key))
  const [active, setActive] = useState({ row: 0, col: 0 })
  const [editing, setEditing] = useState<{ row: number; col: number }>()
  const [dragging, setDragging] = useState<{ key: string; width: number }>()
  const grid = useRef<HTMLTableElement>(null)
  const frame = useRef<HTMLDivElement>(null)
  const [overflows, setOverflows] = useState(false)
  const row = Math.min(active.row, Math.max(0, objects.length - 1))
  // Columns below 0 are each row's controls: -2 its select box, -1 its Open button.
  const col = Math.max(FIRST_COL, Math.min(active.col, Math.max(0, shown.length - 1)))
  const [header, setHeader] = useState(0)

  const width = (column: GridColumn) =>
    dragging?.key === column.key ? dragging.width : (prefs.widths[column.key] ?? widthOf(column))
  const tableWidth = 44 + 72 + shown.reduce((sum, column) => sum + width(column), 0)

  // Whether the grid is wider than its frame, for the "scrolls sideways" cue.
  useLayoutEffect(() => {
    const element = frame.current
    if (!element) return
    const measure = () => setOverflows(element.scrollWidth > element.clientWidth + 1)
    measure()
    const observer = typeof ResizeObserver === 'undefined' ? undefined : new ResizeObserver(measure)
    observer?.observe(element)
    return () => observer?.disconnect()
  }, [tableWidth])

  const focusCell = (r: number, c: number) => {
    setActive({ row: r, col: c })
    requestAnimationFrame(() =>
      grid.current
        ?.querySelector<HTMLElement>(`[data-cell="${r}:${c}"]`)
        ?.focus({ preventScroll: false }),
    )
  }
  // Back to the cell once its editor closes.
  const [returnFocus, setReturnFocus] = useState(false)
  useEffect(() => {
    if (!editing && returnFocus) {
      setReturnFocus(false)
      focusCell(row, col)
    }
  })

  const editable = (c: number) => !readOnly && shown[c] !== undefined && !shown[c]!.readOnly
  const onGridKey = (event: KeyboardEvent<HTMLTableSectionElement>) => {
    if (editing) return
    const last = { row: objects.length - 1, col: shown.length - 1 }
    const moves: Record<string, [number, number]> = {
      ArrowUp: [Math.max(0, row - 1), col],
      ArrowDown: [Math.min(last.row, row + 1), col],
      ArrowLeft: [row, Math.max(FIRST_COL, col - 1)],
      ArrowRight: [row, Math.min(last.col, col + 1)],
      Home: event.ctrlKey ? [0, 0] : [row, 0],
      End: event.ctrlKey ? [last.row, last.col] : [row, last.col],
    }
    const move = moves[event.key]
    if (move) {
      event.preventDefault()
      focusCell(move[0], move[1])
    } else if ((event.key === 'Enter' || event.key === 'F2') && editable(col)) {
      event.preventDefault()
      setEditing({ row, col })
    }
  }

  // The header row's controls, in order: the select-all box, then each column's sort button (or,
  // for a column that does not sort, its width handle).
  const headerItem = (i: number) =>
    grid.current?.querySelectorAll<HTMLElement>('thead [data-header]')[i] ?? undefined
  const headerCount = shown.length + 1
  const onHeaderKey = (event: KeyboardEvent<HTMLTableSectionElement>) => {
    if (event.shiftKey || event.altKey || event.ctrlKey || event.metaKey) return
    const at = Math.min(header, headerCount - 1)
    const moves: Record<string, number> = {
      ArrowLeft: Math.max(0, at - 1),
      ArrowRight: Math.min(headerCount - 1, at + 1),
      Home: 0,
      End: headerCount - 1,
    }
    const next = moves[event.key]
    if (next !== undefined) {
      event.preventDefault()
      setHeader(next)
      headerItem(next)?.focus()
    } else if (event.key === 'ArrowDown' && objects.length) {
      event.preventDefault()
      focusCell(row, col)
    }
  }
  const headerStop = (i: number) => (i === Math.min(header, headerCount - 1) ? 0 : -1)
  const resizeKey = (column: GridColumn) => (event: KeyboardEvent<HTMLElement>) => {
    const step = event.key === 'ArrowRight' ? 16 : event.key === 'ArrowLeft' ? -16 : 0
    if (!step || !event.shiftKey) return
    event.preventDefault()
    setWidth(column.key, width(column) + step)
  }

  const sortBy = (key: string) =>
    props.onOrder(order === key ? `-${key}` : order === `-${key}` ? key : key)

  const startDrag = (column: GridColumn, event: ReactPointerEvent<HTMLElement>) => {
    event.preventDefault()
    const startX = event.clientX
    const startWidth = width(column)
    const target = event.currentTarget
    target.setPointerCapture(event.pointerId)
    let latest = startWidth
    const move = (e: PointerEvent) => {
      latest = Math.min(MAX_WIDTH, Math.max(MIN_WIDTH, startWidth + e.clientX - startX))
      setDragging({ key: column.key, width: latest })
    }
    const up = () => {
      target.removeEventListener('pointermove', move)
      target.removeEventListener('pointerup', up)
      setDragging(undefined)
      setWidth(column.key, latest)
    }
    target.addEventListener('pointermove', move)
    target.addEventListener('pointerup', up)
  }

  const allOnPage = objects.length > 0 && objects.every((o) => selected.has(o.objectId))
  const hiddenCount = columns.length - shown.length

  return (
    <div className="data-grid">
      <details className="grid-columns">
        <summary>Columns{hiddenCount ? ` (${hiddenCount} hidden)` : ''}</summary>
        <fieldset>
          <legend className="visually-hidden">Shown columns</legend>
          {columns.map((column) => (
            <label key={column.key} className="checkbox">
              <input
                type="checkbox"
                checked={!prefs.hidden.includes(column.key)}
                onChange={(event) => setHidden(column.key, !event.target.checked)}
              />
              {column.key}
            </label>
          ))}
        </fieldset>
      </details>
      {overflows ? (
        <p className="grid-cue muted" id="grid-cue">
          The grid is wider than the screen: it scrolls sideways inside its frame.
        </p>
      ) : null}
      <div
        ref={frame}
        id="objects-grid"
        className={`grid-frame${overflows ? ' overflows' : ''}`}
        role="region"
        aria-label={`Grid of ${className}`}
        aria-describedby={overflows ? 'grid-cue' : undefined}
        tabIndex={overflows ? 0 : undefined}
      >
        <table
          ref={grid}
          role="grid"
          aria-label={`Objects of ${className}`}
          aria-rowcount={objects.length + 1}
          style={{ width: tableWidth }}
        >
          <colgroup>
            <col style={{ width: 44 }} />
            <col style={{ width: 72 }} />
            {shown.map((column) => (
              <col key={column.key} style={{ width: width(column) }} />
            ))}
          </colgroup>
          <thead onKeyDown={onHeaderKey}>
            <tr>
              <th scope="col">
                <input
                  type="checkbox"
                  data-header
                  tabIndex={headerStop(0)}
                  onFocus={() => setHeader(0)}
                  aria-label="Select every object on this page"
                  checked={allOnPage}
                  disabled={objects.length === 0}
                  onChange={(event) =>
                    props.onSelect(
                      objects.map((o) => o.objectId),
                      event.target.checked,
                    )
                  }
                />
              </th>
              <th scope="col">
                <span className="visually-hidden">Open</span>
              </th>
              {shown.map((column, c) => {
                const sorted =
                  order === column.key
                    ? 'ascending'
                    : order === `-${column.key}`
                      ? 'descending'
                      : undefined
                const sortable = column.type !== 'acl' && column.type !== 'relation'
                return (
                  <th key={column.key} scope="col" aria-sort={sorted}>
                    <span className="grid-header">
                      {sortable ? (
                        <button
                          type="button"
                          className="grid-sort"
                          data-header
                          tabIndex={headerStop(c + 1)}
                          onFocus={() => setHeader(c + 1)}
                          onKeyDown={resizeKey(column)}
                          onClick={() => sortBy(column.key)}
                          title={`Sort by ${column.key} (Shift with ← or → changes its width)`}
                        >
                          <span className="grid-name">{column.key}</span>
                          <span className="grid-type">{TYPE_LABEL[column.type]}</span>
                          <span aria-hidden="true" className="grid-arrow">
                            {sorted === 'ascending' ? '▲' : sorted === 'descending' ? '▼' : ''}
                          </span>
                        </button>
                      ) : (
                        <span className="grid-sort">
                          <span className="grid-name">{column.key}</span>
                          <span className="grid-type">{TYPE_LABEL[column.type]}</span>
                        </span>
                      )}
                      <span
                        role="separator"
                        aria-orientation="vertical"
                        aria-label={`Width of ${column.key}`}
                        aria-valuenow={width(column)}
                        aria-valuemin={MIN_WIDTH}
                        aria-valuemax={MAX_WIDTH}
                        data-header={sortable ? undefined : true}
                        tabIndex={sortable ? -1 : headerStop(c + 1)}
                        onFocus={sortable ? undefined : () => setHeader(c + 1)}
                        title={`Width of ${column.key} (Shift with ← or → changes it)`}
                        className="grid-resize"
                        onPointerDown={(event) => startDrag(column, event)}
                        onKeyDown={resizeKey(column)}
                      />
                    </span>
                  </th>
                )
              })}
            </tr>
          </thead>
          <tbody onKeyDown={onGridKey}>
            {objects.map((object, r) => (
              <tr key={object.objectId} aria-selected={selected.has(object.objectId)}>
                <td>
                  <input
                    type="checkbox"
                    data-cell={`${r}:-2`}
                    tabIndex={r === row && col === -2 ? 0 : -1}
                    onFocus={() => setActive({ row: r, col: -2 })}
                    aria-label={`Select ${object.objectId}`}
                    checked={selected.has(object.objectId)}
                    onChange={(event) => props.onSelect([object.objectId], event.target.checked)}
                  />
                </td>
                <td>
                  <button
                    type="button"
                    className="button-secondary grid-open"
                    data-cell={`${r}:-1`}
                    tabIndex={r === row && col === -1 ? 0 : -1}
                    onFocus={() => setActive({ row: r, col: -1 })}
                    aria-label={`Open ${object.objectId}`}
                    onClick={() => props.onOpen(object)}
                  >
                    Open
                  </button>
                </td>
                {shown.map((column, c) => {
                  const value = valueAt(object, column)
                  const isEditing = editing?.row === r && editing.col === c
                  return (
                    <td
                      key={column.key}
                      role="gridcell"
                      data-cell={`${r}:${c}`}
                      tabIndex={r === row && c === col && !isEditing ? 0 : -1}
                      aria-readonly={!editable(c) || undefined}
                      className={`grid-cell type-${column.type}${value === undefined ? ' unset' : ''}`}
                      onFocus={() => setActive({ row: r, col: c })}
                      onDoubleClick={() => editable(c) && setEditing({ row: r, col: c })}
                    >
                      {isEditing ? (
                        <CellEditor
                          column={column}
                          value={value}
                          pointerHref={props.pointerHref}
                          upload={props.upload}
                          onCancel={() => {
                            setEditing(undefined)
                            setReturnFocus(true)
                          }}
                          onSave={async (next) => {
                            const failed = await props.onSave(object, column.key, next)
                            if (!failed) {
                              setEditing(undefined)
                              setReturnFocus(true)
                            }
                            return failed
                          }}
                        />
                      ) : (
                        <CellView
                          column={column}
                          value={value}
                          object={object}
                          pointerHref={props.pointerHref}
                        />
                      )}
                    </td>
                  )
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  )
}

function CellView({
  column,
  value,
  object,
  pointerHref,
}: {
  column: GridColumn
  value: unknown
  object: ConsoleObject
  pointerHref: (className: string, objectId: string) => string
}) {
  if (column.type === 'acl')
    return (
      <span title={JSON.stringify(object.acl)}>
        {aclSummary(object)}
        {object.acl['*']?.write ? (
          <span className="badge badge-open">writable by everyone</span>
        ) : null}
      </span>
    )
  if (value === undefined) return <span className="visually-hidden">not set</span>
  const typed = value as Record<string, string>
  switch (typeOfValue(value)) {
    case 'pointer':
      return (
        <a href={pointerHref(typed.className!, typed.objectId!)} tabIndex={-1} className="mono">
          {typed.objectId}
        </a>
      )
    case 'file':
      return (
        <a href={typed.url} tabIndex={-1} target="_blank" rel="noreferrer">
          {typed.name}
        </a>
      )
    case 'date':
      return <time dateTime={typed.iso}>{localDateTime(typed.iso!)}</time>
    default: {
      const text = cellText(value)
      return <span title={text.length > 40 ? text : undefined}>{text}</span>
    }
  }
}
