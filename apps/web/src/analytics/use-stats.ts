import { useMemo } from 'react'
import type { BackendClient } from '@portico/sdk/backend'
import { shortMessageOf } from '../backend/error-message.ts'
import { useServerData } from '../backend/use-server-data.ts'
import {
  fetchStats,
  statsQuery,
  type EventStats,
  type StatsQuery,
  type StatsRange,
} from './stats.ts'

/** What the dashboard shows: one state at a time. */
export type StatsState =
  | { status: 'loading' }
  | { status: 'ready'; stats: EventStats; query: StatsQuery }
  | { status: 'signed-out' }
  | { status: 'forbidden' }
  | { status: 'error'; message: string }

/** Maps a failed stats request to the state that explains it (401/403 are not "errors"). */
export function failureState(error: unknown): StatsState {
  const failure = error as {
    name?: unknown
    status?: unknown
    shortMessage?: unknown
    message?: unknown
  }
  if (failure?.name === 'BackendError') {
    if (failure.status === 401) return { status: 'signed-out' }
    if (failure.status === 403) return { status: 'forbidden' }
  }
  return { status: 'error', message: shortMessageOf(error) }
}

/**
 * Loads the statistics of `range` (and `subdomain`), for the window ending at `now()` when the
 * load starts, so a retry asks for the window ending then. A newer load cancels the one before.
 */
export function useStats(
  client: Pick<BackendClient, 'request'>,
  { range, subdomain, now }: { range: StatsRange; subdomain?: string | undefined; now: () => Date },
): { state: StatsState; reload: () => void } {
  const { state, reload } = useServerData({
    key: ['analytics', 'stats', range, subdomain ?? ''],
    read: async (signal) => {
      const query = statsQuery(range, now(), subdomain)
      return { stats: await fetchStats(client, query, signal), query }
    },
    whileReading: 'loading',
  })
  const stats = useMemo<StatsState>(
    () =>
      state.status === 'ready'
        ? { status: 'ready', ...state.data }
        : state.status === 'error'
          ? failureState(state.error)
          : state,
    [state],
  )
  return { state: stats, reload }
}
