import type { ObjectData, SavedObject } from '@portico/sdk/backend'
import { syncedRowFields } from '@portico/sdk/wire'
import { useLiveQuery } from './use-live-query.ts'

/** Fields of a synced row that say where it happened rather than what (shown apart). */
const PLACE: ReadonlySet<string> = new Set(syncedRowFields)

const short = (value: unknown): string => {
  const text = typeof value === 'string' ? value : JSON.stringify(value)
  return /^0x[0-9a-fA-F]{40,}$/.test(text) ? `${text.slice(0, 6)}…${text.slice(-4)}` : text
}

/** "Transfer from 0x0000…0000, to 0x1234…abcd, value 5". */
export function describeEvent(data: ObjectData): string {
  const details = Object.entries(data)
    .filter(([key]) => !PLACE.has(key))
    .map(([key, value]) => `${key} ${short(value)}`)
  return `${String(data.event ?? 'Event')}${details.length ? ` ${details.join(', ')}` : ''}`
}

export interface RecentActivityProps {
  /** A class filled by a contract-event sync. */
  className: string
  where?: Record<string, unknown> | undefined
  /** Most rows shown (default 10). */
  limit?: number | undefined
  /** Shown while there are no rows yet. */
  empty?: string | undefined
}

/**
 * The newest events of a synced class, kept current without a reload (a live query): each new
 * event appears at the top, marked pending until confirmed.
 * @example <RecentActivity className="Transfer" />
 */
export function RecentActivity({
  className,
  where,
  limit = 10,
  empty = 'No activity yet.',
}: RecentActivityProps) {
  const { objects, isLoading, error } = useLiveQuery({
    className,
    where,
    order: '-blockNumber,-logIndex',
    limit,
  })
  if (error && objects.length === 0)
    return (
      <p className="recent-activity-error">
        Recent activity could not be loaded. Reload the page to try again.
      </p>
    )
  if (isLoading) return <p className="recent-activity-loading">Loading recent activity…</p>
  if (objects.length === 0) return <p className="recent-activity-empty">{empty}</p>
  return (
    <ol className="recent-activity" aria-live="polite">
      {objects.map((row: SavedObject) => (
        <li key={row.objectId} data-confirmed={String(row.data.confirmed === true)}>
          <span className="recent-activity-what">{describeEvent(row.data)}</span>{' '}
          <span className="recent-activity-where">
            block {String(row.data.blockNumber)}
            {row.data.confirmed === true ? '' : ' · pending'}
          </span>
        </li>
      ))}
    </ol>
  )
}
