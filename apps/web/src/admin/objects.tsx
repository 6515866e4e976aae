import { useEffect, useRef, useState } from 'react'
import type { SectionProps } from './section.ts'
import { AddRow } from './add-row.tsx'
import { ClassDefaultsPanel } from './class-defaults.tsx'
import { CreateClass } from './create-class.tsx'
import { DataGrid } from './data-grid.tsx'
import { FieldTools } from './field-tools.tsx'
import { ClassIndexes } from './class-indexes.tsx'
import { columnsOf } from './field-types.ts'
import { FilterBar, type AppliedFilter } from './filter-bar.tsx'
import { ObjectEditor, type ConsoleObject } from './object-editor.tsx'
import { change } from './use-admin.ts'
import { consoleCall, consolePath, useConsole } from './console-api.ts'
import { OpenClassBadge, useOpenClasses } from './open-classes.tsx'

/** Rows a page may show; the first is the default. */
const PAGE_SIZES = [50, 100, 500] as const
const DEFAULT_ORDER = '-createdAt'
/** A class with more objects than this (past the page shown) is counted as "10,000+". */
const COUNT_LIMIT = 10_000

/** Where a pointer leads: its target, alone in the browser. */
export const pointerHref = (className: string, objectId: string) =>
  `/admin/objects?${new URLSearchParams({ class: className, where: JSON.stringify({ objectId }) })}`

/**
 * The data browser: a class's objects as a grid (one column per field), filtered, sorted,
 * edited in place, and deleted or exported by selection. A link from a pointer opens the
 * browser on its target (`?class=…&where=…`).
 */
export function Objects(props: SectionProps) {
  // Read once: a pointer's link loads the page anew (wouter's search hook would put its code in
  // every page's first load), and the browser writes its own state back with replaceState.
  const [search] = useState(() => (typeof window === 'undefined' ? '' : window.location.search))
  const params = new URLSearchParams(search)
  return (
    <Browser
      {...props}
      initialClass={params.get('class') ?? undefined}
      initialWhere={params.get('where') ?? undefined}
      initialOrder={params.get('order') ?? undefined}
    />
  )
}

/** The filter a link carries; one edited by hand into something unreadable says so. */
function filterOf(where: string | undefined): AppliedFilter {
  if (!where) return { where: undefined }
  try {
    const parsed: unknown = JSON.parse(where)
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed))
      return { where: parsed as Record<string, unknown> }
  } catch {
    // Reported below.
  }
  return { problem: 'The filter in the address is not a JSON object: fix it or clear it.' }
}

/** Keeps class, filter and order in the address: a view is shared by its link and survives a reload. */
function useViewInAddress(className: string | undefined, where: string | undefined, order: string) {
  useEffect(() => {
    if (!className) return
    const params = new URLSearchParams({ class: className })
    if (where) params.set('where', where)
    if (order !== DEFAULT_ORDER) params.set('order', order)
    const next = `?${params}`
    if (next !== window.location.search)
      window.history.replaceState(window.history.state, '', `${window.location.pathname}${next}`)
  }, [className, where, order])
}

function Browser({
  client,
  role,
  initialClass,
  initialWhere,
  initialOrder,
}: SectionProps & {
  initialClass?: string | undefined
  initialWhere?: string | undefined
  initialOrder?: string | undefined
}) {
  const classes = useConsole(client, 'GET /api/admin/overview')
  const openClasses = useOpenClasses(client)
  const opened = openClasses.state.status === 'ready' ? openClasses.state.data.classes : []
  const [className, setClassName] = useState(initialClass)
  const [filter, setFilter] = useState<AppliedFilter>(() => filterOf(initialWhere))
  const [order, setOrder] = useState(initialOrder ?? DEFAULT_ORDER)
  const [pageSize, setPageSize] = useState<number>(PAGE_SIZES[0])
  // Pages read so far: the first, then each after where the one before it ended (`next`), so
  // a page deep in a large class is read from the index, not skipped to; an order by a document
  // field has no `next` and its pages skip. `ends[i]` is where page i ended.
  const [pageIndex, setPageIndex] = useState(0)
  const [ends, setEnds] = useState<(string | undefined)[]>([])
  const total = useRef<number | undefined>(undefined)
  const capped = useRef(false)
  const firstPage = () => {
    setPageIndex(0)
    setEnds([])
    total.current = undefined
    capped.current = false
  }
  const [open, setOpen] = useState<ConsoleObject>()
  const [selected, setSelected] = useState(new Map<string, ConsoleObject>())
  const [message, setMessage] = useState<{ text: string; problem?: boolean }>()
  const [confirming, setConfirming] = useState(false)
  const readOnly = role !== 'admin'
  // The overview lists the classes that hold objects or were declared here; one just created is
  // listed before the overview is read again, and so is the class the address names.
  const [created, setCreated] = useState<string[]>([])

  const known = classes.state.status === 'ready' ? classes.state.data.classes : undefined
  const chosen = className ?? known?.[0]?.className
  const unlisted = [...new Set([...(chosen ? [chosen] : []), ...created])].filter(
    (name) => !known?.some((c) => c.className === name),
  )
  const problem = 'problem' in filter ? filter.problem : undefined
  const whereText = 'where' in filter && filter.where ? JSON.stringify(filter.where) : undefined
  const after = pageIndex > 0 ? ends[pageIndex - 1] : undefined
  useViewInAddress(chosen, whereText, order)
  // Counting a large class takes a while: once, on the first page, and only up to COUNT_LIMIT
  // (shown as "10,000+"), since a count reads every match.
  const query = {
    where: whereText,
    order,
    limit: String(pageSize),
    ...(after ? { after } : { skip: String(pageIndex * pageSize) }),
    ...(pageIndex === 0 ? { count: '1' as const, countLimit: String(COUNT_LIMIT) } : {}),
  }
  // An unreadable filter loads nothing: no rows is right, the class's every row would be wrong.
  const page = useConsole(
    client,
    problem || !chosen ? undefined : 'GET /api/admin/classes/:className',
    { params: { className: chosen ?? '' }, query },
  )
  const declared = useConsole(
    client,
    chosen ? 'GET /api/admin/classes/:className/fields' : undefined,
    { params: { className: chosen ?? '' } },
  )
  const loaded = page.state.status === 'ready' && !problem ? page.state.data : undefined
  if (loaded?.count !== undefined) {
    total.current = loaded.count
    capped.current = loaded.countCapped === true
  }
  const count = total.current ?? loaded?.results.length ?? 0
  // The page whose rows are on screen: the last answer stays shown while the next page is read,
  // so the status and the paging buttons follow the rows, not the page asked for.
  const shown = useRef<{ answer?: unknown; index: number }>({ index: 0 })
  if (loaded && shown.current.answer !== loaded)
    shown.current = { answer: loaded, index: pageIndex }
  const reading = shown.current.index !== pageIndex
  const skip = shown.current.index * pageSize
  const objects = (loaded?.results ?? []).map((object) => ({
    ...object,
    ownerAddress: loaded?.owners?.[object.owner],
    addresses: loaded?.owners,
  }))
  // The fields seen on this class's pages so far: a filter that selects nothing (or cannot be
  // read) still offers them, so it can be fixed.
  const seen = useRef({ className: chosen, documents: [] as Record<string, unknown>[] })
  if (seen.current.className !== chosen) seen.current = { className: chosen, documents: [] }
  if (objects.length) seen.current.documents = objects.map((o) => o.data)
  const columns = columnsOf(
    [...objects.map((o) => o.data), ...seen.current.documents],
    declared.state.status === 'ready' ? declared.state.data.fields : {},
  )
  const exportUrl = (format: 'json' | 'csv') =>
    client.url(
      `${consolePath('GET /api/admin/classes/:className/export', { className: chosen ?? '' })}?format=${format}${whereText ? `&where=${encodeURIComponent(whereText)}` : ''}`,
    )
  const reload = () => {
    page.reload()
    classes.reload()
    declared.reload()
  }
  const pickClass = (name: string) => {
    setClassName(name)
    firstPage()
    setOpen(undefined)
    setSelected(new Map())
    setFilter({ where: undefined })
    setMessage(undefined)
  }

  const saveCell = async (object: ConsoleObject, field: string, value: unknown) => {
    const { [field]: _old, ...rest } = object.data
    const data = value === undefined ? rest : { ...rest, [field]: value }
    const failed = await change(() =>
      consoleCall(client, 'PUT /api/admin/classes/:className/:objectId', {
        params: { className: chosen ?? '', objectId: object.objectId },
        body: { data },
      }),
    )
    if (!failed) page.reload()
    return failed
  }
  const upload = (file: File) =>
    client.request<{ name: string; url: string }>(
      'POST',
      `/api/files/${encodeURIComponent(file.name.replace(/[^A-Za-z0-9._-]/g, '_') || 'file')}`,
      { body: file, contentType: file.type || 'application/octet-stream' },
    )
  const deleteSelected = async () => {
    setConfirming(false)
    let answer: { deleted: string[]; missing: string[] } | undefined
    const failed = await change(async () => {
      answer = await consoleCall(client, 'POST /api/admin/classes/:className/delete', {
        params: { className: chosen ?? '' },
        body: { ids: [...selected.keys()] },
      })
    })
    if (failed || !answer)
      return setMessage({ text: failed ?? 'Nothing was deleted.', problem: true })
    setSelected(new Map())
    // Back to the first page, which counts the class again.
    firstPage()
    setMessage({
      text: `Deleted ${answer.deleted.length} object${answer.deleted.length === 1 ? '' : 's'}${answer.missing.length ? ` (${answer.missing.length} already gone)` : ''}.`,
    })
    reload()
  }
  const exportSelected = () => {
    const blob = new Blob([JSON.stringify([...selected.values()].map(plain), null, 2)], {
      type: 'application/json',
    })
    const link = document.createElement('a')
    link.href = URL.createObjectURL(blob)
    link.download = `${chosen ?? 'objects'}-selected.json`
    link.click()
    setTimeout(() => URL.revokeObjectURL(link.href), 10_000)
  }

  return (
    <section aria-labelledby="objects-heading" className="objects">
      <h2 id="objects-heading">Objects</h2>
      {known && known.length === 0 && !chosen ? (
        <p className="console-empty">
          No objects yet. Objects appear here once the site (or an import) saves some.
        </p>
      ) : null}
      <div className="objects-class">
        <label>
          Class
          <select value={chosen ?? ''} onChange={(event) => pickClass(event.target.value)}>
            {unlisted.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
            {known?.map((c) => (
              <option key={c.className} value={c.className}>
                {c.className} ({c.count})
                {opened.some((o) => o.className === c.className)
                  ? ' · open to signed-out writes'
                  : ''}
              </option>
            ))}
          </select>
        </label>
        {readOnly ? null : (
          <CreateClass
            client={client}
            known={[...(known ?? []).map((c) => c.className), ...created]}
            onCreated={(name) => {
              setCreated([...created, name])
              pickClass(name)
              classes.reload()
              setMessage({ text: `The class ${name} was created: add its rows and fields below.` })
            }}
          />
        )}
        {opened
          .filter((o) => o.className === chosen)
          .map((o) => (
            <OpenClassBadge
              key={o.className}
              client={client}
              open={o}
              readOnly={readOnly}
              onClosed={() => {
                openClasses.reload()
                setMessage({ text: `${o.className} is closed: every write now needs a sign-in.` })
              }}
            />
          ))}
      </div>
      {chosen ? <ClassDefaultsPanel key={chosen} client={client} className={chosen} /> : null}
      {chosen ? (
        <>
          <FilterBar
            key={chosen}
            className={chosen}
            columns={columns}
            initialJson={initialWhere && chosen === initialClass ? initialWhere : undefined}
            onApply={(next) => {
              setFilter(next)
              firstPage()
              setOpen(undefined)
            }}
          />
          {problem ? (
            <p role="alert" className="console-problem">
              {problem} No objects are shown until the filter is fixed.
            </p>
          ) : null}
          {page.state.status === 'error' && !problem ? (
            <p role="alert" className="console-problem">
              {page.state.message}
              {whereText ? ' No objects are shown until the filter is fixed.' : ''}
            </p>
          ) : null}
          {loaded ? (
            <>
              <div className="console-toolbar objects-toolbar">
                <span role="status">
                  {capped.current
                    ? `${count.toLocaleString('en')}+ objects`
                    : `${count} object${count === 1 ? '' : 's'}`}
                  {count > pageSize
                    ? `, ${skip + 1}–${Math.min(skip + pageSize, count)} shown`
                    : ''}
                  {selected.size ? `, ${selected.size} selected` : ''}
                </span>
                <a className="button button-secondary" href={exportUrl('json')} download>
                  Export JSON
                </a>
                <a className="button button-secondary" href={exportUrl('csv')} download>
                  Export CSV
                </a>
                {selected.size ? (
                  <>
                    <button type="button" className="button-secondary" onClick={exportSelected}>
                      Export selected
                    </button>
                    <button
                      type="button"
                      className="button-secondary"
                      onClick={() => setSelected(new Map())}
                    >
                      Clear selection
                    </button>
                    {readOnly ? null : confirming ? (
                      <span role="group" aria-label="Confirm deletion" className="confirm">
                        <strong>
                          Delete {selected.size} object{selected.size === 1 ? '' : 's'} for good?
                        </strong>
                        <button type="button" className="danger" onClick={deleteSelected}>
                          Yes, delete
                        </button>
                        <button
                          type="button"
                          className="button-secondary"
                          onClick={() => setConfirming(false)}
                        >
                          Keep them
                        </button>
                      </span>
                    ) : (
                      <button
                        type="button"
                        className="button-secondary"
                        onClick={() => setConfirming(true)}
                      >
                        Delete selected…
                      </button>
                    )}
                  </>
                ) : null}
              </div>
              {readOnly ? null : (
                <AddRow
                  key={chosen}
                  client={client}
                  className={chosen}
                  columns={columns}
                  upload={upload}
                  onCreated={(object) => {
                    setMessage({ text: `Added ${object.objectId} to ${chosen}.` })
                    firstPage()
                    reload()
                  }}
                />
              )}
              {message ? (
                <p
                  role={message.problem ? 'alert' : 'status'}
                  className={message.problem ? 'console-problem' : undefined}
                >
                  {message.text}
                </p>
              ) : null}
              {objects.length === 0 ? (
                <p className="console-empty">
                  {whereText ? 'No objects match this filter.' : `${chosen} has no objects yet.`}
                </p>
              ) : (
                <DataGrid
                  className={chosen}
                  columns={columns}
                  objects={objects}
                  order={order}
                  onOrder={(next) => {
                    setOrder(next)
                    firstPage()
                  }}
                  selected={new Set(selected.keys())}
                  onSelect={(ids, on) => {
                    const next = new Map(selected)
                    for (const id of ids) {
                      const object = objects.find((o) => o.objectId === id)
                      if (on && object) next.set(id, object)
                      else next.delete(id)
                    }
                    setSelected(next)
                    setConfirming(false)
                  }}
                  readOnly={readOnly}
                  onSave={saveCell}
                  upload={upload}
                  onOpen={setOpen}
                  pointerHref={pointerHref}
                />
              )}
              {count > PAGE_SIZES[0] ? (
                <p className="console-toolbar">
                  <label>
                    Rows per page{' '}
                    <select
                      value={pageSize}
                      onChange={(event) => {
                        setPageSize(Number(event.target.value))
                        firstPage()
                      }}
                    >
                      {PAGE_SIZES.map((size) => (
                        <option key={size} value={size}>
                          {size}
                        </option>
                      ))}
                    </select>
                  </label>
                  <button
                    type="button"
                    className="button-secondary"
                    disabled={pageIndex === 0}
                    onClick={firstPage}
                  >
                    First page
                  </button>
                  <button
                    type="button"
                    className="button-secondary"
                    disabled={pageIndex === 0}
                    onClick={() => setPageIndex(pageIndex - 1)}
                  >
                    Previous page
                  </button>
                  <button
                    type="button"
                    className="button-secondary"
                    disabled={
                      reading ||
                      loaded.results.length < pageSize ||
                      (!capped.current && skip + pageSize >= count)
                    }
                    onClick={() => {
                      setEnds([...ends.slice(0, pageIndex), loaded.next])
                      setPageIndex(pageIndex + 1)
                    }}
                  >
                    Next page
                  </button>
                </p>
              ) : null}
            </>
          ) : null}
          <ClassIndexes client={client} className={chosen} readOnly={readOnly} />
          {readOnly ? null : (
            <FieldTools
              client={client}
              className={chosen}
              columns={columns}
              onChanged={(text) => {
                setMessage({ text })
                reload()
              }}
            />
          )}
        </>
      ) : null}
      {open && chosen ? (
        <ObjectEditor
          key={open.objectId}
          client={client}
          role={role}
          className={chosen}
          object={open}
          onDone={() => {
            setOpen(undefined)
            reload()
          }}
        />
      ) : null}
    </section>
  )
}

/** An object as an export file holds it (without the page's address book). */
function plain({ ownerAddress: _a, addresses: _b, ...object }: ConsoleObject) {
  return object
}
