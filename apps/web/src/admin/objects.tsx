import { useState } from 'react'
import { useSearch } from 'wouter'
import type { SectionProps } from './console.tsx'
import { ConsoleTable } from './console-table.tsx'
import { ObjectEditor, type ConsoleObject } from './object-editor.tsx'
import { dateTime, shortAddress, useAdmin } from './use-admin.ts'

const PAGE = 20

/**
 * A class's objects, paged, sorted and filtered with the query language of the SDK (`where` as
 * JSON, `order` like `-score,title`): the same API, answered for every object.
 */
export function Objects({ client, role }: SectionProps) {
  const classes = useAdmin<{ classes: { className: string; count: number }[] }>(client, 'overview')
  // `?class=` opens that class (the Syncs section links its classes here).
  const search = useSearch()
  const [className, setClassName] = useState(
    () => new URLSearchParams(search).get('class') ?? undefined,
  )
  const [draft, setDraft] = useState({ where: '', order: '-createdAt' })
  const [applied, setApplied] = useState({ where: '', order: '-createdAt' })
  const [skip, setSkip] = useState(0)
  const [open, setOpen] = useState<ConsoleObject>()
  const chosen =
    className ??
    (classes.state.status === 'ready' ? classes.state.data.classes[0]?.className : undefined)
  const whereError =
    applied.where.trim() && !isJsonObject(applied.where)
      ? 'The filter is not a JSON object.'
      : undefined
  const query = {
    where: applied.where.trim() && !whereError ? applied.where : undefined,
    order: applied.order.trim() || undefined,
    limit: String(PAGE),
    skip: String(skip),
    count: '1',
  }
  const page = useAdmin<{
    results: ConsoleObject[]
    count: number
    owners?: Record<string, string>
  }>(client, chosen ? `classes/${encodeURIComponent(chosen)}` : undefined, query)
  const exportUrl = (format: 'json' | 'csv') =>
    client.url(
      `/api/admin/classes/${encodeURIComponent(chosen ?? '')}/export?format=${format}${query.where ? `&where=${encodeURIComponent(query.where)}` : ''}`,
    )

  return (
    <section aria-labelledby="objects-heading">
      <h2 id="objects-heading">Objects</h2>
      {classes.state.status === 'ready' && classes.state.data.classes.length === 0 ? (
        <p>No objects yet.</p>
      ) : null}
      <form
        className="console-filters"
        onSubmit={(event) => {
          event.preventDefault()
          setApplied(draft)
          setSkip(0)
          setOpen(undefined)
        }}
      >
        <label>
          Class
          <select
            value={chosen ?? ''}
            onChange={(event) => {
              setClassName(event.target.value)
              setSkip(0)
              setOpen(undefined)
            }}
          >
            {classes.state.status === 'ready'
              ? classes.state.data.classes.map((c) => (
                  <option key={c.className} value={c.className}>
                    {c.className} ({c.count})
                  </option>
                ))
              : null}
          </select>
        </label>
        <label>
          Filter (where, as JSON)
          <textarea
            rows={2}
            value={draft.where}
            placeholder='{"score": {"$gte": 5}}'
            onChange={(event) => setDraft({ ...draft, where: event.target.value })}
          />
        </label>
        <label>
          Sort (order)
          <input
            value={draft.order}
            placeholder="-createdAt"
            onChange={(event) => setDraft({ ...draft, order: event.target.value })}
          />
        </label>
        <button type="submit">Apply</button>
      </form>
      {whereError ? <p role="alert">{whereError}</p> : null}
      <ConsoleTable
        state={chosen ? page.state : { status: 'loading' }}
        untilReady="nothing"
        rows={(data) =>
          data.results.map((found) => ({
            ...found,
            ownerAddress: data.owners?.[found.owner],
            addresses: data.owners,
          }))
        }
        rowKey={(object) => object.objectId}
        caption={`Objects of ${chosen}`}
        toolbar={(data) => (
          <p className="console-toolbar">
            <span>
              {data.count} object{data.count === 1 ? '' : 's'}
              {data.count > PAGE ? `, ${skip + 1}–${Math.min(skip + PAGE, data.count)} shown` : ''}
            </span>
            <a className="button button-secondary" href={exportUrl('json')} download>
              Export JSON
            </a>
            <a className="button button-secondary" href={exportUrl('csv')} download>
              Export CSV
            </a>
          </p>
        )}
        columns={[
          { header: 'Id', className: 'mono', cell: (object) => object.objectId },
          {
            header: 'Owner',
            className: 'address',
            title: (object) => `${object.ownerAddress ?? ''} (user ${object.owner})`,
            cell: (object) =>
              object.ownerAddress ? shortAddress(object.ownerAddress) : object.owner,
          },
          { header: 'Public', cell: (object) => (object.publicRead ? 'Yes' : 'No') },
          { header: 'Updated', cell: (object) => dateTime(object.updatedAt) },
          {
            header: 'Fields',
            className: 'mono preview',
            cell: (object) => JSON.stringify(object.data).slice(0, 80),
          },
          {
            header: 'Actions',
            headerHidden: true,
            cell: (object) => (
              <button
                type="button"
                className="button-secondary"
                aria-label={`Open ${object.objectId}`}
                onClick={() => setOpen(object)}
              >
                Open
              </button>
            ),
          },
        ]}
        pager={(data) => ({ skip, size: PAGE, count: data.count, onSkip: setSkip })}
      />
      {open && chosen ? (
        <ObjectEditor
          key={open.objectId}
          client={client}
          role={role}
          className={chosen}
          object={open}
          onDone={() => {
            setOpen(undefined)
            page.reload()
            classes.reload()
          }}
        />
      ) : null}
    </section>
  )
}

function isJsonObject(text: string): boolean {
  try {
    const value = JSON.parse(text) as unknown
    return value !== null && typeof value === 'object' && !Array.isArray(value)
  } catch {
    return false
  }
}
