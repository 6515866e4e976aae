import type { BackendClient } from '../backend/client.ts'
import type { EventStats, EventStatsQuery } from '../wire/types.ts'

function isCountRow<K extends string>(
  row: unknown,
  key: K,
): row is Record<K, string> & { count: number } {
  if (typeof row !== 'object' || row === null) return false
  const record = row as Record<string, unknown>
  return typeof record[key] === 'string' && typeof record.count === 'number' && record.count >= 0
}

/**
 * Checks that an answer has the shape of `EventStats` (the dashboard draws from it, so a wrong
 * shape must fail loudly rather than draw nonsense); throws a `TypeError` naming what is wrong.
 */
export function checkEventStats(json: unknown): EventStats {
  const answer = (typeof json === 'object' && json !== null ? json : {}) as Record<string, unknown>
  const list = <K extends string>(name: string, key: K) => {
    const value = answer[name]
    if (!Array.isArray(value) || !value.every((row) => isCountRow(row, key)))
      throw new TypeError(`The statistics answer has no valid "${name}" list`)
    return value as (Record<K, string> & { count: number })[]
  }
  const buckets = list('buckets', 'start')
  if (buckets.some((row) => Number.isNaN(Date.parse(row.start))))
    throw new TypeError('The statistics answer has a bucket with an invalid start time')
  if (typeof answer.total !== 'number') throw new TypeError('The statistics answer has no total')
  return {
    buckets,
    events: list('events', 'event'),
    subdomains: list('subdomains', 'subdomain'),
    total: answer.total,
  }
}

/**
 * Event counts per time bucket, event and subdomain (`GET /api/events/stats`). Admins only: a
 * `BackendError` with status 401 (signed out) or 403 (not an admin) otherwise.
 *
 * @example
 * const stats = await getEventStats(client, { from, to, bucket: 'hour' })
 */
export async function getEventStats(
  client: Pick<BackendClient, 'request'>,
  query: EventStatsQuery,
  options: { signal?: AbortSignal | undefined } = {},
): Promise<EventStats> {
  const { from, to, bucket, subdomain, event } = query
  const json = await client.request<unknown>('GET', '/api/events/stats', {
    query: { from, to, bucket, subdomain, event },
    signal: options.signal,
  })
  return checkEventStats(json)
}
