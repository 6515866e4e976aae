import { BackendError } from '../errors/backend.ts'
import type { LiveEventMessage } from '../wire/types.ts'
import type { BackendClient } from './client.ts'
import { encode } from './encode.ts'
import { fromWire, type ObjectData, type SavedObject } from './objects.ts'

// Live queries: the objects of a class matching a `where`, as the signed-in user may read them,
// pushed by the server as they are created, changed or deleted (`/api/live`). The client's one
// live connection (`client.live`, live-connection.ts) carries every subscription; when it drops,
// it is re-opened with backoff and the subscriptions are made again (changes made while it was
// down are not replayed: re-query on `onReconnect` if they matter).

/** What happened to an object, as seen by this subscription. */
export type LiveEvent = LiveEventMessage['op']

export interface SubscribeParameters {
  className: string
  /** The same constraints as `queryObjects` (`$regex`, `$or`, … included). */
  where?: Record<string, unknown> | undefined
}

export interface SubscribeHandlers<T extends ObjectData> {
  /** `enter`/`leave`: the object started/stopped matching (or being readable). */
  onEvent(event: LiveEvent, object: SavedObject<T>): void
  /** The subscription was refused (e.g. an invalid `where`); it is not retried. */
  onError?: ((error: BackendError) => void) | undefined
  /** The connection came back after a drop: events in between were missed. */
  onReconnect?: (() => void) | undefined
}

export interface Subscription {
  /** Resolves when the server confirmed the subscription. */
  ready: Promise<void>
  unsubscribe(): void
}

/**
 * Subscribes to the objects of `className` matching `where`: `onEvent` gets each one as it is
 * created, updated, deleted, or starts/stops matching. Filtered by what the signed-in user may
 * read, like a query.
 * @example
 * const live = subscribe(client, { className: 'Note', where: { board: 'b1' } }, {
 *   onEvent: (event, note) => console.log(event, note.data.text),
 * })
 * await live.ready
 * live.unsubscribe()
 */
export function subscribe<T extends ObjectData = ObjectData>(
  client: BackendClient,
  parameters: SubscribeParameters,
  handlers: SubscribeHandlers<T>,
): Subscription {
  if (!client.WebSocket) {
    throw new BackendError({
      method: 'GET',
      path: '/api/live',
      code: 'no_response',
      attempts: 0,
      message:
        'Live queries need a WebSocket class: pass `WebSocket` (e.g. from the ws package) to createBackendClient.',
    })
  }
  let confirm!: () => void
  let refuse!: (error: BackendError) => void
  const ready = new Promise<void>((resolve, reject) => {
    confirm = resolve
    refuse = (error) => {
      reject(error)
      handlers.onError?.(error)
    }
  })
  // The refusal also reaches `onError`; a caller that never awaits `ready` must not get an
  // unhandled rejection.
  ready.catch(() => {})
  const { live } = client
  const id = live.add({
    className: parameters.className,
    where: parameters.where ? encode(parameters.where) : undefined,
    onConfirmed: confirm,
    onRefused: refuse,
    onChange: (op, object) => handlers.onEvent(op, fromWire<T>(object)),
    onReconnect: () => handlers.onReconnect?.(),
  })
  return { ready, unsubscribe: () => live.remove(id) }
}
