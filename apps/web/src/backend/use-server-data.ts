import { useCallback, useMemo } from 'react'
import { keepPreviousData, useQuery, type QueryKey } from '@tanstack/react-query'
import { usePorticoQueryClient } from '@portico/react'
import { shortMessageOf } from './error-message.ts'

/** What a view shows of one read from the server: one state at a time. */
export type Loaded<T> =
  | { status: 'loading' }
  | { status: 'ready'; data: T }
  | { status: 'error'; error: unknown; message: string }

export interface ServerRead<T> {
  /** Names the read (a TanStack Query key): it is made again when the key changes. */
  key: QueryKey
  /** The read; `signal` aborts it when a newer read replaces it or the view goes. */
  read: (signal: AbortSignal) => Promise<T>
  /** `false`: nothing to read yet (the state stays `loading`). */
  enabled?: boolean | undefined
  /**
   * While reading again: `keep` shows the last answer until the next one arrives (the
   * console's tables); `loading` says it is loading (the dashboard, whose window moves on).
   */
  whileReading?: 'keep' | 'loading' | undefined
}

/**
 * Reads from the server for a view (through TanStack Query, in the query client of the Portico
 * provider), again when the key changes or on `reload()`; a newer read cancels the one before.
 */
export function useServerData<T>({
  key,
  read,
  enabled = true,
  whileReading = 'keep',
}: ServerRead<T>): { state: Loaded<T>; reload: () => void } {
  const query = useQuery(
    {
      queryKey: key,
      queryFn: ({ signal }) => read(signal),
      enabled,
      // Read when the view opens and when asked, once: the backend client retries by itself,
      // and a view does not change under its reader when the window gets focus again.
      retry: false,
      refetchOnWindowFocus: false,
      refetchOnReconnect: false,
      placeholderData: whileReading === 'keep' ? keepPreviousData : undefined,
    },
    usePorticoQueryClient(),
  )
  const { data, error, status, isFetching, refetch } = query
  const reload = useCallback(() => void refetch(), [refetch])
  const state = useMemo<Loaded<T>>(() => {
    if (whileReading === 'loading' && isFetching) return { status: 'loading' }
    if (status === 'error') return { status: 'error', error, message: shortMessageOf(error) }
    if (data !== undefined) return { status: 'ready', data }
    return { status: 'loading' }
  }, [whileReading, isFetching, status, error, data])
  return { state, reload }
}
