import { useContext, useEffect } from 'react'
import {
  QueryClient,
  QueryClientContext,
  type DataTag,
  type QueryKey,
  type UseQueryOptions,
} from '@tanstack/react-query'
import { usePorticoContext } from './portico-provider.ts'
import { createWatchers, type Watchers } from './watchers.ts'

/**
 * What the `…QueryOptions` functions return: options for `useQuery` and the query client, with
 * a key that names the type of its data (`queryClient.getQueryData(options.queryKey)` is typed).
 */
export type PorticoQueryOptions<TData, TKey extends QueryKey> = UseQueryOptions<
  TData,
  Error,
  TData,
  TKey
> & { queryKey: DataTag<TKey, TData, Error> }

/**
 * The `QueryClient` Portico's hooks keep their data in: the app's, when a
 * `QueryClientProvider` is above the `PorticoProvider` (one cache for the whole app), else one
 * the `PorticoProvider` owns. That one is made by the first hook that needs it, so pages without
 * data hooks never load the query library (it is not in the first load of a page).
 * @example const queryClient = usePorticoQueryClient()
 */
export function usePorticoQueryClient(): QueryClient {
  const fromApp = useContext(QueryClientContext)
  const { shared } = usePorticoContext()
  const client = fromApp ?? (shared.queryClient ??= new QueryClient())
  const owned = client !== fromApp
  useEffect(() => {
    if (!owned) return
    // What a QueryClientProvider does for the app's client: follow focus and the network
    // while the client is in use.
    client.mount()
    return () => client.unmount()
  }, [client, owned])
  return client
}

/** The watchers of the nearest provider (watchers.ts). */
export function useWatchers(): Watchers {
  const { shared } = usePorticoContext()
  return (shared.watchers ??= createWatchers())
}
