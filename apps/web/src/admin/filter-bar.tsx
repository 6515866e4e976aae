import { Fragment, useState } from 'react'
import type { GridColumn } from './field-types.ts'
import {
  operatorsFor,
  parseJsonWhere,
  takesValue,
  VALUE_HINTS,
  whereOf,
  type FilterRow,
  type Operator,
} from './filters.ts'
import { forgetFilter, readSavedFilters, saveFilter } from './saved-filters.ts'

export type AppliedFilter = { where: Record<string, unknown> | undefined } | { problem: string }

/**
 * The data browser's filter bar: conditions built from a field, an operator and a value (all
 * must hold, or, in OR groups, all of any one group), or a `where` written as JSON. Applying a filter that cannot be read hands its
 * problem up, and the browser then shows no rows. A filter can be named and kept for the class,
 * and used again from the list of saved ones.
 */
export function FilterBar({
  className,
  columns,
  initialJson,
  onApply,
}: {
  className: string
  columns: readonly GridColumn[]
  initialJson?: string
  onApply: (filter: AppliedFilter) => void
}) {
  const [mode, setMode] = useState<'fields' | 'json'>(initialJson ? 'json' : 'fields')
  const [rows, setRows] = useState<FilterRow[]>([])
  const [json, setJson] = useState(initialJson ?? '')
  const filterable = columns.filter((column) => column.type !== 'acl' && column.type !== 'relation')
  const typeOf = (field: string) => filterable.find((c) => c.key === field)?.type ?? 'string'

  const setRow = (index: number, change: Partial<FilterRow>) =>
    setRows(rows.map((row, i) => (i === index ? { ...row, ...change } : row)))
  const lastGroup = rows.reduce((last, row) => Math.max(last, row.group ?? 0), 0)
  // A group's rows stay together: a new row goes after the last one of its group.
  const addRow = (group: number) => {
    const row: FilterRow = { field: filterable[0]?.key ?? 'objectId', op: 'eq', value: '', group }
    const after = rows.findLastIndex((other) => (other.group ?? 0) <= group)
    setRows([...rows.slice(0, after + 1), row, ...rows.slice(after + 1)])
  }
  const dateValue = (row: FilterRow) => typeOf(row.field) === 'date' && !(row.op in VALUE_HINTS)
  const current = () => (mode === 'json' ? parseJsonWhere(json) : whereOf(rows, columns))
  const apply = () => onApply(current())
  const [saved, setSaved] = useState(() => readSavedFilters(className))
  const [chosen, setChosen] = useState('')
  const [name, setName] = useState('')
  const [note, setNote] = useState<string>()
  const keep = () => {
    const filter = current()
    if ('problem' in filter) return setNote(`Not saved: ${filter.problem}`)
    if (!filter.where) return setNote('Not saved: add a condition first.')
    const label = name.trim()
    if (!label) return setNote('Not saved: give the filter a name.')
    setSaved(saveFilter(className, { name: label, where: JSON.stringify(filter.where) }))
    setChosen(label)
    setName('')
    setNote(`Saved as “${label}”.`)
  }
  const use = (label: string) => {
    const filter = saved.find((f) => f.name === label)
    setChosen(label)
    if (!filter) return
    setMode('json')
    setJson(filter.where)
    setNote(undefined)
    onApply(parseJsonWhere(filter.where))
  }

  return (
    <form
      className="filter-bar"
      aria-label="Filter"
      onSubmit={(event) => {
        event.preventDefault()
        apply()
      }}
    >
      <fieldset className="filter-mode">
        <legend className="visually-hidden">How to filter</legend>
        <label className="checkbox">
          <input
            type="radio"
            name="filter-mode"
            checked={mode === 'fields'}
            onChange={() => setMode('fields')}
          />
          Conditions
        </label>
        <label className="checkbox">
          <input
            type="radio"
            name="filter-mode"
            checked={mode === 'json'}
            onChange={() => setMode('json')}
          />
          JSON where
        </label>
      </fieldset>
      {mode === 'json' ? (
        <label className="stacked">
          Filter (where, as JSON)
          <textarea
            rows={2}
            className="mono"
            value={json}
            placeholder='{"score": {"$gte": 5}}'
            onChange={(event) => setJson(event.target.value)}
          />
        </label>
      ) : (
        <ul className="filter-rows">
          {rows.map((row, index) => (
            <Fragment key={index}>
              {index > 0 && (row.group ?? 0) !== (rows[index - 1]!.group ?? 0) ? (
                <li className="filter-or">or</li>
              ) : null}
              <li className="filter-row">
                <label>
                  <span className="visually-hidden">Field of condition {index + 1}</span>
                  <select
                    value={row.field}
                    onChange={(event) => {
                      const field = event.target.value
                      const ops = operatorsFor(typeOf(field)).map((entry) => entry.op)
                      setRow(index, { field, op: ops.includes(row.op) ? row.op : 'eq' })
                    }}
                  >
                    {filterable.map((column) => (
                      <option key={column.key} value={column.key}>
                        {column.key}
                      </option>
                    ))}
                  </select>
                </label>
                <label>
                  <span className="visually-hidden">Test of condition {index + 1}</span>
                  <select
                    value={row.op}
                    onChange={(event) => setRow(index, { op: event.target.value as Operator })}
                  >
                    {operatorsFor(typeOf(row.field)).map((entry) => (
                      <option key={entry.op} value={entry.op}>
                        {entry.label}
                      </option>
                    ))}
                  </select>
                </label>
                {takesValue(row.op) ? (
                  <label>
                    <span className="visually-hidden">Value of condition {index + 1}</span>
                    <input
                      type={dateValue(row) ? 'datetime-local' : 'text'}
                      step={dateValue(row) ? 1 : undefined}
                      value={row.value}
                      placeholder={
                        VALUE_HINTS[row.op] ??
                        (typeOf(row.field) === 'boolean' ? 'true or false' : 'value')
                      }
                      onChange={(event) => setRow(index, { value: event.target.value })}
                    />
                  </label>
                ) : null}
                <button
                  type="button"
                  className="button-secondary"
                  aria-label={`Remove condition ${index + 1}`}
                  onClick={() => setRows(rows.filter((_row, i) => i !== index))}
                >
                  ×
                </button>
              </li>
            </Fragment>
          ))}
          <li className="console-toolbar">
            <button
              type="button"
              className="button-secondary"
              disabled={filterable.length === 0}
              onClick={() => addRow(lastGroup)}
            >
              Add condition
            </button>
            {rows.length ? (
              <button
                type="button"
                className="button-secondary"
                disabled={filterable.length === 0}
                onClick={() => addRow(lastGroup + 1)}
              >
                Add an OR group
              </button>
            ) : null}
          </li>
        </ul>
      )}
      <p className="console-toolbar">
        <button type="submit">Apply filter</button>
        <button
          type="button"
          className="button-secondary"
          onClick={() => {
            setRows([])
            setJson('')
            onApply({ where: undefined })
          }}
        >
          Clear
        </button>
      </p>
      <fieldset className="saved-filters console-toolbar">
        <legend className="visually-hidden">Saved filters</legend>
        {saved.length ? (
          <>
            <label>
              Saved filter{' '}
              <select value={chosen} onChange={(event) => use(event.target.value)}>
                <option value="">(choose one)</option>
                {saved.map((filter) => (
                  <option key={filter.name} value={filter.name}>
                    {filter.name}
                  </option>
                ))}
              </select>
            </label>
            <button
              type="button"
              className="button-secondary"
              disabled={!chosen}
              onClick={() => {
                setSaved(forgetFilter(className, chosen))
                setNote(`“${chosen}” forgotten.`)
                setChosen('')
              }}
            >
              Forget it
            </button>
          </>
        ) : null}
        <label>
          Name of this filter{' '}
          <input value={name} onChange={(event) => setName(event.target.value)} maxLength={80} />
        </label>
        <button type="button" className="button-secondary" onClick={keep}>
          Save filter
        </button>
        <span role="status" className="muted">
          {note}
        </span>
      </fieldset>
    </form>
  )
}
