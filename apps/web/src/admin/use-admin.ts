import { useCallback, useEffect, useState } from 'react'
import type { BackendClient } from '@portico/sdk/backend'
import { shortMessageOf } from '../backend/error-message.ts'

/** What a console view loads: one state at a time. */
export type Loaded<T> =
  { status: 'loading' } | { status: 'ready'; data: T } | { status: 'error'; message: string }

/**
 * Loads `GET /api/admin/<path>` and loads it again when the path or query change, or on
 * `reload()`; a newer load cancels the one before it. No path: nothing to load yet.
 */
export function useAdmin<T>(
  client: BackendClient,
  path: string | undefined,
  query?: Record<string, string | undefined>,
): { state: Loaded<T>; reload: () => void } {
  const [state, setState] = useState<Loaded<T>>({ status: 'loading' })
  const [attempt, setAttempt] = useState(0)
  const queryKey = JSON.stringify(query ?? {})
  useEffect(() => {
    if (path === undefined) return
    const controller = new AbortController()
    client
      .request<T>('GET', `/api/admin/${path}`, {
        query: JSON.parse(queryKey) as Record<string, string | undefined>,
        signal: controller.signal,
      })
      .then(
        (data) => !controller.signal.aborted && setState({ status: 'ready', data }),
        (error: unknown) =>
          !controller.signal.aborted &&
          setState({ status: 'error', message: shortMessageOf(error) }),
      )
    return () => controller.abort()
  }, [client, path, queryKey, attempt])
  const reload = useCallback(() => setAttempt((n) => n + 1), [])
  return { state, reload }
}

/** Runs a console change; resolves to an error message, or undefined when it worked. */
export async function change(run: () => Promise<unknown>): Promise<string | undefined> {
  try {
    await run()
    return undefined
  } catch (error) {
    return shortMessageOf(error)
  }
}

export const dateTime = (iso: string | null | undefined) =>
  iso ? new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' }) : '—'

export const bytes = (n: number) =>
  n < 1024
    ? `${n} B`
    : n < 1024 ** 2
      ? `${(n / 1024).toFixed(1)} KB`
      : `${(n / 1024 ** 2).toFixed(1)} MB`

export const shortAddress = (address: string) => `${address.slice(0, 6)}…${address.slice(-4)}`
