import { useEffect, useState } from 'react'
import { queryObjects, subscribe, type ObjectData, type SavedObject } from '@portico/sdk/backend'
import { usePortico } from './portico-provider.ts'

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

/**
 * The objects of a class matching `where`, kept current as they are created, changed and
 * deleted anywhere: a query, then a live subscription (`/api/live`) that edits the list. After
 * a dropped connection comes back, the query runs again.
 * @example const { objects } = useLiveQuery({ className: 'Message', where: { room: 'lobby' } })
 */
export function useLiveQuery<T extends ObjectData = ObjectData>(
  parameters: LiveQueryParameters,
): LiveQueryState<T> {
  const portico = usePortico()
  const [state, setState] = useState<LiveQueryState<T>>({ objects: [], isLoading: true })
  const { className, order = '-createdAt', limit = 20 } = parameters
  const where = JSON.stringify(parameters.where ?? {})

  useEffect(() => {
    let active = true
    let stop = () => {}
    const run = async () => {
      const client = await portico.backend()
      const filter = JSON.parse(where) as Record<string, unknown>
      const load = async () => {
        const { results } = await queryObjects<T>(client, {
          className,
          where: filter,
          order,
          limit,
        })
        if (active) setState({ objects: results, isLoading: false })
      }
      const live = subscribe<T>(
        client,
        { className, where: filter },
        {
          onEvent: (event, object) =>
            active &&
            setState((current) => ({
              ...current,
              objects: applyLiveEvent(current.objects, event, object, limit),
            })),
          onError: (error) => active && setState((current) => ({ ...current, error })),
          onReconnect: () => void load().catch(() => {}),
        },
      )
      stop = live.unsubscribe
      // Subscribed before the first read: nothing created in between is missed.
      await live.ready
      await load()
    }
    run().catch((error: unknown) => active && setState((s) => ({ ...s, error, isLoading: false })))
    return () => {
      active = false
      stop()
    }
  }, [portico, className, where, order, limit])

  return state
}
