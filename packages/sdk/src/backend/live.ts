import { answerCode, BackendError } from '../errors/backend.ts'
import type {
  LiveConnectMessage,
  LiveEventMessage,
  LiveServerMessage,
  LiveSubscribeMessage,
  LiveUnsubscribeMessage,
} from '../wire/types.ts'
import type { BackendClient } from './client.ts'
import { encode } from './encode.ts'
import { fromWire, type ObjectData, type SavedObject } from './objects.ts'
import { backoffDelay } from './retry.ts'

// Live queries: the objects of a class matching a `where`, as the signed-in user may read them,
// pushed by the server as they are created, changed or deleted (`/api/live`). One connection
// per client carries every subscription; when it drops, it is re-opened with backoff and the
// subscriptions are made again (changes made while it was down are not replayed: re-query
// on `onReconnect` if they matter).

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

interface Entry {
  id: number
  message: string
  handlers: SubscribeHandlers<ObjectData>
  confirm(): void
  refuse(error: BackendError): void
}

interface Connection {
  add(entry: Entry): void
  remove(id: number): void
}

const connections = new WeakMap<BackendClient, Connection>()

function liveUrl(client: BackendClient): string {
  return client.url('/api/live').replace(/^http/, 'ws')
}

function openConnection(client: BackendClient): Connection {
  const entries = new Map<number, Entry>()
  let socket: InstanceType<NonNullable<BackendClient['WebSocket']>> | undefined
  let attempt = 0
  let timer: ReturnType<typeof setTimeout> | undefined

  const connect = () => {
    const WebSocketClass = client.WebSocket!
    const next = new WebSocketClass(liveUrl(client))
    socket = next
    next.onopen = () => {
      const reconnected = attempt > 0
      attempt = 0
      const token = client.currentToken()
      next.send(
        JSON.stringify({ op: 'connect', ...(token ? { token } : {}) } satisfies LiveConnectMessage),
      )
      for (const entry of entries.values()) {
        next.send(entry.message)
        if (reconnected) entry.handlers.onReconnect?.()
      }
    }
    next.onmessage = (event) => {
      let message: LiveServerMessage
      try {
        message = JSON.parse(String(event.data)) as LiveServerMessage
      } catch {
        return
      }
      const entry =
        'requestId' in message && typeof message.requestId === 'number'
          ? entries.get(message.requestId)
          : undefined
      if (!entry) return
      if (message.op === 'subscribed') return entry.confirm()
      if (message.op === 'error') {
        entries.delete(entry.id)
        return entry.refuse(
          new BackendError({
            method: 'GET',
            path: '/api/live',
            status: 400,
            code: answerCode(message.code, 400),
            message: message.message,
            attempts: 1,
          }),
        )
      }
      if ('object' in message) entry.handlers.onEvent(message.op, fromWire(message.object))
    }
    next.onclose = () => {
      if (socket !== next) return
      socket = undefined
      if (entries.size === 0) return
      attempt++
      timer = setTimeout(connect, backoffDelay(Math.min(attempt, 6), Math.random))
    }
    next.onerror = () => {}
  }

  return {
    add(entry) {
      entries.set(entry.id, entry)
      if (!socket && !timer) connect()
      else if (socket && socket.readyState === 1) socket.send(entry.message)
    },
    remove(id) {
      entries.delete(id)
      if (socket?.readyState === 1)
        socket.send(
          JSON.stringify({ op: 'unsubscribe', requestId: id } satisfies LiveUnsubscribeMessage),
        )
      if (entries.size === 0) {
        clearTimeout(timer)
        timer = undefined
        const closing = socket
        socket = undefined
        closing?.close()
      }
    },
  }
}

let nextId = 1

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
  let connection = connections.get(client)
  if (!connection) {
    connection = openConnection(client)
    connections.set(client, connection)
  }
  const id = nextId++
  let confirm!: () => void
  let refuse!: (error: BackendError) => void
  const ready = new Promise<void>((resolve, reject) => {
    confirm = resolve
    refuse = (error) => {
      reject(error)
      handlers.onError?.(error)
    }
  })
  ready.catch(() => {})
  connection.add({
    id,
    message: JSON.stringify({
      op: 'subscribe',
      requestId: id,
      className: parameters.className,
      ...(parameters.where ? { where: encode(parameters.where) as Record<string, unknown> } : {}),
    } satisfies LiveSubscribeMessage),
    handlers: handlers as SubscribeHandlers<ObjectData>,
    confirm,
    refuse,
  })
  const active = connection
  return { ready, unsubscribe: () => active.remove(id) }
}
