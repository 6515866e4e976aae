/**
 * Creates a WebSocket class that plays the server's `/api/live` for the SDK's live client, in
 * process: it opens on the next tick, confirms each subscription (or refuses the class named in
 * `refuse`), pushes changes with `push`, and records what stays subscribed, so a test can see a
 * subscription left open. `drop()` closes a socket from the server's side.
 */
export function createLiveSockets(options: { refuse?: string } = {}) {
  const sockets: LiveSocket[] = []

  class LiveSocket {
    readyState = 0
    closed = false
    /** Subscriptions (request id → class) made on this socket and not ended. */
    readonly open = new Map<number, string>()
    readonly sent: { op: string; requestId?: number; className?: string; token?: string }[] = []
    onopen: ((event: unknown) => void) | null = null
    onmessage: ((event: { data: unknown }) => void) | null = null
    onclose: ((event: unknown) => void) | null = null
    onerror: ((event: unknown) => void) | null = null

    constructor(readonly url: string) {
      sockets.push(this)
      setTimeout(() => {
        if (this.closed) return
        this.readyState = 1
        this.onopen?.({})
      }, 0)
    }

    send(data: string) {
      const message = JSON.parse(data) as LiveSocket['sent'][number]
      this.sent.push(message)
      const { requestId, className } = message
      if (message.op === 'subscribe' && requestId !== undefined) {
        if (className === options.refuse) {
          return this.later({ op: 'error', requestId, code: 'invalid_query', message: 'Refused' })
        }
        this.open.set(requestId, className ?? '')
        this.later({ op: 'subscribed', requestId })
      }
      if (message.op === 'unsubscribe' && requestId !== undefined) this.open.delete(requestId)
    }

    close() {
      if (this.closed) return
      this.closed = true
      this.readyState = 3
      this.open.clear()
      setTimeout(() => this.onclose?.({}), 0)
    }

    private later(message: object) {
      setTimeout(() => {
        if (!this.closed) this.onmessage?.({ data: JSON.stringify(message) })
      }, 0)
    }

    /** Sends a change to every subscription of `className` on this socket. */
    push(op: string, className: string, object: object) {
      for (const [requestId, subscribed] of this.open) {
        if (subscribed === className) this.later({ op, requestId, object })
      }
    }
  }

  return {
    WebSocket: LiveSocket,
    sockets,
    /** Sockets not closed. */
    connected: () => sockets.filter((socket) => !socket.closed),
    /** Subscriptions the server would still be serving, across every socket. */
    subscriptions: () =>
      sockets.reduce((sum, socket) => sum + (socket.closed ? 0 : socket.open.size), 0),
    /** Pushes a change to every open subscription of `className`. */
    push: (op: string, className: string, object: object) => {
      for (const socket of sockets) if (!socket.closed) socket.push(op, className, object)
    },
    /** The server drops every open socket. */
    drop: () => {
      for (const socket of sockets) socket.close()
    },
  }
}

/** An object as the wire carries it. */
export function wireObject(className: string, objectId: string, data: Record<string, unknown>) {
  return {
    className,
    objectId,
    owner: 'u1',
    publicRead: true,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    data,
  }
}
