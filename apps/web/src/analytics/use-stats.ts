import { useCallback, useEffect, useState } from 'react'
import type { BackendClient } from '@portico/sdk/backend'
import { shortMessageOf } from '../backend/error-message.ts'
import { fetchStats, type EventStats, type StatsQuery } from './stats.ts'

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
 * Loads the statistics for `query` (made by `makeQuery` on every load, so a retry asks for the
 * window ending now). A newer load cancels the one before it.
 */
export function useStats(
  client: Pick<BackendClient, 'request'>,
  makeQuery: () => StatsQuery,
): { state: StatsState; reload: () => void } {
  const [state, setState] = useState<StatsState>({ status: 'loading' })
  const [attempt, setAttempt] = useState(0)

  useEffect(() => {
    const controller = new AbortController()
    const query = makeQuery()
    setState({ status: 'loading' })
    fetchStats(client, query, controller.signal).then(
      (stats) => {
        if (!controller.signal.aborted) setState({ status: 'ready', stats, query })
      },
      (error: unknown) => {
        if (!controller.signal.aborted) setState(failureState(error))
      },
    )
    return () => controller.abort()
  }, [client, makeQuery, attempt])

  const reload = useCallback(() => setAttempt((n) => n + 1), [])
  return { state, reload }
}
