import type { ReactNode } from 'react'
import type { Loaded } from './use-admin.ts'

/** One column of a console table: its header and what each row shows in it. */
export interface Column<Row> {
  header: string
  /** The header is for screen readers only (a column of buttons). */
  headerHidden?: boolean
  /** Numbers: aligned to the right, header and cells. */
  numeric?: boolean
  /** Class of the cells. */
  className?: string
  /** The cell names its row (`<th scope="row">`). */
  rowHeader?: boolean
  /** A cell's tooltip. */
  title?: (row: Row) => string
  cell: (row: Row) => ReactNode
}

/** Pages of `size` rows out of `count`, from `skip`. */
export interface Pager {
  skip: number
  size: number
  count: number
  onSkip: (skip: number) => void
}

/**
 * A console table and the state of its load: the error (an alert), a sentence instead of the
 * table when there are no rows, the table in its sideways-scrolling region (rows once loaded;
 * each row a card on a narrow screen, its cells named by their column), and a pager.
 */
export function ConsoleTable<Data, Row>({
  state,
  rows,
  rowKey,
  columns,
  caption,
  captionHidden = false,
  empty,
  alert = true,
  untilReady = 'table',
  toolbar,
  pager,
}: {
  state: Loaded<Data>
  rows: (data: Data) => readonly Row[]
  rowKey: (row: Row) => string | number
  columns: readonly Column<Row>[]
  caption: ReactNode
  captionHidden?: boolean
  /** Said when the load answered no rows. */
  empty?: string
  /** Whether a failed load shows its error here. */
  alert?: boolean
  /** Before the load answered: an empty table, or nothing. */
  untilReady?: 'table' | 'nothing'
  /** Above the table, once loaded (counts, exports). */
  toolbar?: (data: Data) => ReactNode
  pager?: (data: Data) => Pager
}) {
  const ready = state.status === 'ready' ? state.data : undefined
  const shown = ready === undefined ? undefined : rows(ready)
  const pages = ready === undefined ? undefined : pager?.(ready)
  return (
    <>
      {alert && state.status === 'error' ? <p role="alert">{state.message}</p> : null}
      {shown?.length === 0 ? <p className="console-empty">{empty ?? 'Nothing here yet.'}</p> : null}
      {(ready === undefined && untilReady === 'nothing') || shown?.length === 0 ? (
        ready !== undefined && toolbar ? (
          toolbar(ready)
        ) : null
      ) : (
        <>
          {ready !== undefined && toolbar ? toolbar(ready) : null}
          <div
            className="table-scroll cards"
            tabIndex={0}
            role="region"
            aria-label="Table, scrolls sideways"
          >
            <table>
              <caption className={captionHidden ? 'visually-hidden' : undefined}>{caption}</caption>
              <thead>
                <tr>
                  {columns.map((column) => (
                    <th
                      key={column.header}
                      scope="col"
                      className={column.numeric ? 'numeric' : undefined}
                    >
                      {column.headerHidden ? (
                        <span className="visually-hidden">{column.header}</span>
                      ) : (
                        column.header
                      )}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {shown?.map((row) => (
                  <tr key={rowKey(row)}>
                    {columns.map((column) => {
                      const Cell = column.rowHeader ? 'th' : 'td'
                      const className =
                        [column.numeric ? 'numeric' : '', column.className ?? '']
                          .join(' ')
                          .trim() || undefined
                      return (
                        <Cell
                          key={column.header}
                          scope={column.rowHeader ? 'row' : undefined}
                          className={className}
                          title={column.title?.(row)}
                          data-label={column.headerHidden ? undefined : column.header}
                        >
                          {column.cell(row)}
                        </Cell>
                      )
                    })}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {pages ? <PagerButtons {...pages} /> : null}
        </>
      )}
    </>
  )
}

function PagerButtons({ skip, size, count, onSkip }: Pager) {
  return (
    <p className="console-toolbar">
      <button
        type="button"
        className="button-secondary"
        disabled={skip === 0}
        onClick={() => onSkip(Math.max(0, skip - size))}
      >
        Previous page
      </button>
      <button
        type="button"
        className="button-secondary"
        disabled={skip + size >= count}
        onClick={() => onSkip(skip + size)}
      >
        Next page
      </button>
    </p>
  )
}
