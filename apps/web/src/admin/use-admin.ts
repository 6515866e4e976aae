import type { BackendClient } from '@portico/sdk/backend'
import { shortMessageOf } from '../backend/error-message.ts'
import { useServerData, type Loaded } from '../backend/use-server-data.ts'

export type { Loaded }

/**
 * Loads `GET /api/admin/<path>` and loads it again when the path or query change, or on
 * `reload()`; a newer load cancels the one before it, and the last answer stays shown until
 * the next one arrives. No path: nothing to load yet.
 */
export function useAdmin<T>(
  client: BackendClient,
  path: string | undefined,
  query: Record<string, string | undefined> = {},
): { state: Loaded<T>; reload: () => void } {
  return useServerData<T>({
    key: ['admin', path, query],
    read: (signal) => client.request<T>('GET', `/api/admin/${path}`, { query, signal }),
    enabled: path !== undefined,
  })
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
