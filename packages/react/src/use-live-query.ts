import { useEffect, useMemo } from 'react'
import { hashKey, queryOptions, useQuery, type QueryClient } from '@tanstack/react-query'
import {
  queryObjects,
  subscribe,
  type ObjectData,
  type SavedObject,
  type Subscription,
} from '@portico/sdk/backend'
import type { Portico } from '@portico/sdk/portico'
import { usePortico } from './portico-provider.ts'
import { usePorticoQueryClient, useWatchers, type PorticoQueryOptions } from './query-client.ts'
import type { Watch } from './watchers.ts'

export interface LiveQueryParameters {
  className: string
  where?: Record<string, unknown> | undefined
  /** Newest first by default. */
  order?: string | undefined
  /** The list keeps at most this many objects (default 20). */
  limit?: number | undefined
}

export interface LiveQueryState<T extends ObjectData> {
  objects: SavedObject<T>[]
  isLoading: boolean
  error?: unknown
}

/** The list after a live event: added, replaced by id, or removed. */
export function applyLiveEvent<T extends ObjectData>(
  list: SavedObject<T>[],
  event: string,
  object: SavedObject<T>,
  limit: number,
): SavedObject<T>[] {
  const rest = list.filter((item) => item.objectId !== object.objectId)
  if (event === 'leave' || event === 'delete') return rest
  if (event === 'update' && rest.length === list.length) return list
  // New and entering objects go first (the default order is newest first).
  if (event === 'create' || event === 'enter') return [object, ...rest].slice(0, limit)
  return list.map((item) => (item.objectId === object.objectId ? object : item))
}

/** A live query's parameters with their defaults, as its query key holds them. */
function settled(parameters: LiveQueryParameters) {
  const { className, where = {}, order = '-createdAt', limit = 20 } = parameters
  return { className, where, order, limit }
}

/** Reads the first page of the list. */
async function readList<T extends ObjectData>(
  portico: Portico,
  list: ReturnType<typeof settled>,
): Promise<SavedObject<T>[]> {
  const client = await portico.backend()
  return (await queryObjects<T>(client, list)).results
}

/** The key of a live query's data. */
export type LiveQueryKey = readonly ['portico', 'liveQuery', ReturnType<typeof settled>]

/**
 * The query behind `useLiveQuery`: the first page of objects, read once. `useLiveQuery` keeps it
 * current; on its own (prefetching, invalidating) it is an ordinary query.
 * @example queryClient.invalidateQueries(liveQueryOptions(portico, { className: 'Message' }))
 */
export function liveQueryOptions<T extends ObjectData = ObjectData>(
  portico: Portico,
  parameters: LiveQueryParameters,
): PorticoQueryOptions<SavedObject<T>[], LiveQueryKey> {
  const list = settled(parameters)
  return queryOptions({
    queryKey: ['portico', 'liveQuery', list] as LiveQueryKey,
    queryFn: () => readList<T>(portico, list),
    // Live events keep the list current while it is shown: it is never stale then, and it is
    // dropped when no component shows it (it would not be current any more). A failed read is
    // not retried (the list says so; a reconnect reads again).
    staleTime: Infinity,
    gcTime: 0,
    retry: false,
  })
}

/** The live subscription of one list, shared by every component showing it. */
interface LiveWatch extends Watch {
  /** Resolves when the server confirmed the subscription; rejects if it was refused or stopped. */
  ready: Promise<void>
}

function watchLive<T extends ObjectData>(
  portico: Portico,
  queryClient: QueryClient,
  options: ReturnType<typeof liveQueryOptions<T>>,
): LiveWatch {
  const { queryKey } = options
  const list = queryKey[2]
  const { className, where, limit } = list
  let ended = false
  let live: Subscription | undefined
  const ready = portico.backend().then((client) => {
    // Every component left while the backend client was loading: subscribe to nothing.
    if (ended) throw new Error('The live query was stopped before it subscribed')
    live = subscribe<T>(
      client,
      { className, where },
      {
        onEvent: (event, object) =>
          queryClient.setQueryData(queryKey, (shown) =>
            shown ? applyLiveEvent(shown, event, object, limit) : shown,
          ),
        onReconnect: () => {
          // Changes made while the socket was down were missed: read the list again. A failed
          // read keeps the list as it is; the next reconnect reads again.
          readList<T>(portico, list).then(
            (results) => queryClient.setQueryData(queryKey, results),
            () => {},
          )
        },
      },
    )
    return live.ready
  })
  // A refusal reaches the list through its read (below); a stop reaches nobody.
  ready.catch(() => {})
  return {
    ready,
    stop: () => {
      ended = true
      live?.unsubscribe()
    },
  }
}

const none: never[] = []

/**
 * The objects of a class matching `where`, kept current as they are created, changed and
 * deleted anywhere: a query, then a live subscription (`/api/live`) that edits the list. After
 * a dropped connection comes back, the query runs again. Components showing the same list share
 * one query and one subscription; the last one to unmount ends it.
 * @example const { objects } = useLiveQuery({ className: 'Message', where: { room: 'lobby' } })
 */
export function useLiveQuery<T extends ObjectData = ObjectData>(
  parameters: LiveQueryParameters,
): LiveQueryState<T> {
  const portico = usePortico()
  const queryClient = usePorticoQueryClient()
  const watchers = useWatchers()
  const options = liveQueryOptions<T>(portico, parameters)
  const key = hashKey(options.queryKey)

  // Before the query: a component's effects run in order, so the subscription is under way
  // when the query first reads.
  useEffect(
    () => watchers.watch(key, () => watchLive(portico, queryClient, options)),
    // `options` is made anew on every render, from what `key` names.
    [watchers, key, portico, queryClient],
  )
  const query = useQuery(
    {
      ...options,
      queryFn: async ({ signal }) => {
        // Subscribed before the first read: nothing created in between is missed.
        await watchers.get<LiveWatch>(key)?.ready
        // Every component left meanwhile (TanStack Query aborts the read then): no read.
        signal.throwIfAborted()
        return readList<T>(portico, options.queryKey[2])
      },
    },
    queryClient,
  )
  const { data, status, error } = query
  return useMemo(
    () => ({ objects: data ?? none, isLoading: status === 'pending', error: error ?? undefined }),
    [data, status, error],
  )
}
