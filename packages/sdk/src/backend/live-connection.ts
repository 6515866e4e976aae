import { answerCode, BackendError } from '../errors/backend.ts'
import type {
  LiveConnectMessage,
  LiveEventMessage,
  LiveServerMessage,
  LiveSubscribeMessage,
  LiveUnsubscribeMessage,
  WireObject,
} from '../wire/types.ts'
import { backoffDelay } from './retry.ts'

// The socket behind live queries (`/api/live`): one per backend client, created with it, carrying
// every subscription of that client. It opens with the first subscription and closes with the
// last; when it drops, it is opened again with backoff and the subscriptions are made again
// (changes made while it was down are not replayed: each entry hears `onReconnect`). Objects
// arrive as the wire sends them; `subscribe` (live.ts) turns them into saved objects.

/** What live queries need of a WebSocket class (the browser's, or the `ws` package's). */
export type WebSocketClass = new (url: string) => {
  readyState: number
  send(data: string): void
  close(): void
  onopen: ((event: unknown) => void) | null
  onmessage: ((event: { data: unknown }) => void) | null
  onclose: ((event: unknown) => void) | null
  onerror: ((event: unknown) => void) | null
}

/** One subscription as the connection carries it. */
export interface LiveEntry {
  /** What to subscribe to (sent again after every reconnect). */
  className: string
  /** The encoded `where`, if any. */
  where?: unknown
  /** The server confirmed the subscription. */
  onConfirmed(): void
  /** The server refused it (e.g. an invalid `where`); it is dropped, not retried. */
  onRefused(error: BackendError): void
  /** A change of an object the subscription covers (`create`, `update`, `enter`, ...). */
  onChange(op: LiveEventMessage['op'], object: WireObject): void
  /** The socket came back after a drop. */
  onReconnect(): void
}

export interface LiveConnection {
  /** Adds a subscription and returns its id; the socket opens with the first one. */
  add(entry: LiveEntry): number
  /** Ends a subscription; the socket closes with the last one. */
  remove(id: number): void
  /** Ends every subscription and closes the socket. */
  close(): void
}

export interface LiveConnectionOptions {
  /** The `ws:`/`wss:` URL of `/api/live`. */
  url: string
  /** The bearer token to connect with, read at every (re)connect. */
  token: () => string | undefined
  WebSocket: WebSocketClass | undefined
}

type Socket = InstanceType<WebSocketClass>

export function createLiveConnection(options: LiveConnectionOptions): LiveConnection {
  const entries = new Map<number, LiveEntry>()
  let nextId = 1
  let socket: Socket | undefined
  let attempt = 0
  let timer: ReturnType<typeof setTimeout> | undefined

  const subscribeMessage = (id: number, entry: LiveEntry) =>
    JSON.stringify({
      op: 'subscribe',
      requestId: id,
      className: entry.className,
      ...(entry.where === undefined ? {} : { where: entry.where as LiveSubscribeMessage['where'] }),
    } satisfies LiveSubscribeMessage)

  const connect = () => {
    timer = undefined
    const next = new options.WebSocket!(options.url)
    socket = next
    next.onopen = () => {
      const reconnected = attempt > 0
      attempt = 0
      const token = options.token()
      next.send(
        JSON.stringify({ op: 'connect', ...(token ? { token } : {}) } satisfies LiveConnectMessage),
      )
      for (const [id, entry] of entries) {
        next.send(subscribeMessage(id, entry))
        if (reconnected) entry.onReconnect()
      }
    }
    next.onmessage = (event) => {
      let message: LiveServerMessage
      try {
        message = JSON.parse(String(event.data)) as LiveServerMessage
      } catch {
        // Not a message of the protocol: nothing to route it to.
        return
      }
      const id =
        'requestId' in message && typeof message.requestId === 'number'
          ? message.requestId
          : undefined
      const entry = id === undefined ? undefined : entries.get(id)
      if (id === undefined || !entry) return
      if (message.op === 'subscribed') return entry.onConfirmed()
      if (message.op === 'error') {
        entries.delete(id)
        return entry.onRefused(
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
      if ('object' in message) entry.onChange(message.op, message.object)
    }
    next.onclose = () => {
      if (socket !== next) return
      socket = undefined
      if (entries.size === 0) return
      attempt++
      timer = setTimeout(connect, backoffDelay(Math.min(attempt, 6), Math.random))
    }
    // The close that follows an error is what reconnects.
    next.onerror = () => {}
  }

  const shut = () => {
    clearTimeout(timer)
    timer = undefined
    const closing = socket
    socket = undefined
    closing?.close()
  }

  return {
    add(entry) {
      const id = nextId++
      entries.set(id, entry)
      if (!socket && !timer) connect()
      else if (socket?.readyState === 1) socket.send(subscribeMessage(id, entry))
      return id
    },
    remove(id) {
      entries.delete(id)
      if (socket?.readyState === 1)
        socket.send(
          JSON.stringify({ op: 'unsubscribe', requestId: id } satisfies LiveUnsubscribeMessage),
        )
      if (entries.size === 0) shut()
    },
    close() {
      entries.clear()
      shut()
    },
  }
}
