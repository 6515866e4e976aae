import type { IncomingMessage } from 'node:http'
import type { Duplex } from 'node:stream'
import type { FastifyInstance } from 'fastify'
import { WebSocketServer, type WebSocket } from 'ws'
import type { SocketSlots } from '../db/cluster/cluster.ts'

// WebSocket endpoints of the server (live queries), by exact path. The upgrade is answered by
// the `ws` library on the server's own HTTP listener; any other upgrade is refused.

/** Largest message a client may send (a subscription with its `where`). */
export const MAX_MESSAGE_BYTES = 64 * 1024

export type SocketHandler = (socket: WebSocket, request: IncomingMessage) => void

export interface SocketOptions {
  /** The per-address limit (each socket can carry up to 100 subscriptions). */
  slots: SocketSlots
  /** The client's address of an upgrade request (the proxy's `X-Forwarded-For` when trusted). */
  clientAddress: (request: IncomingMessage) => string
}

export function attachSockets(
  app: FastifyInstance,
  handlers: Map<string, SocketHandler>,
  options: SocketOptions,
): void {
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES })
  const { slots } = options
  const refuse = (socket: Duplex, status: string) =>
    socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`)
  const onUpgrade = async (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    let path: string
    try {
      path = new URL(request.url ?? '/', 'http://localhost').pathname.replace(/\/+$/, '') || '/'
    } catch {
      path = ''
    }
    const handler = handlers.get(path)
    if (!handler) return refuse(socket, '404 Not Found')
    // Every change is matched against every subscription: one client cannot open without bound.
    const address = options.clientAddress(request)
    let allowed: boolean
    try {
      allowed = await slots.acquire(address)
    } catch (error) {
      app.log.warn({ err: error }, 'live socket limit could not be checked')
      return refuse(socket, '503 Service Unavailable')
    }
    if (!allowed) return refuse(socket, '429 Too Many Requests')
    let released = false
    const release = () => {
      if (released) return
      released = true
      slots.release(address)
    }
    // The client may have gone while the slot was taken.
    if (socket.destroyed) return release()
    socket.once('close', release)
    wss.handleUpgrade(request, socket, head, (ws) => {
      ws.once('close', release)
      // A protocol handler that throws must not take the process down.
      try {
        handler(ws, request)
      } catch (error) {
        app.log.error({ err: error }, 'live socket handler failed')
        ws.close(1011)
      }
    })
  }
  const listener = (request: IncomingMessage, socket: Duplex, head: Buffer) =>
    void onUpgrade(request, socket, head)
  app.server.on('upgrade', listener)
  app.addHook('onClose', async () => {
    app.server.off('upgrade', listener)
    for (const client of wss.clients) client.terminate()
    await new Promise<void>((resolve) => wss.close(() => resolve()))
  })
}

export interface MessageHandlers {
  /** Answers a message that is not a JSON object. */
  unreadable(): void
  handle(message: Record<string, unknown>): Promise<void>
  /** Answers a message whose handling failed. */
  failed(error: unknown, message: Record<string, unknown>): void
}

/**
 * Hands a socket's messages to `handle` one at a time, in order: a subscribe waits for the
 * connect sent before it.
 */
export function readMessages(socket: WebSocket, handlers: MessageHandlers): void {
  let queue: Promise<void> = Promise.resolve()
  socket.on('message', (data, isBinary) => {
    const message = readMessage(data, isBinary)
    if (!message) return handlers.unreadable()
    queue = queue
      .then(() => handlers.handle(message))
      .catch((error: unknown) => handlers.failed(error, message))
  })
}

/** Parses a client's text message as a JSON object; undefined for anything else. */
export function readMessage(data: unknown, isBinary: boolean): Record<string, unknown> | undefined {
  if (isBinary) return undefined
  try {
    const value: unknown = JSON.parse(String(data))
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined
  } catch {
    return undefined
  }
}

/** Sends JSON unless the socket is gone or its buffer is backed up (a stalled reader is dropped). */
export function sendJson(socket: WebSocket, message: unknown): void {
  if (socket.readyState !== socket.OPEN) return
  if (socket.bufferedAmount > 4 * 1024 * 1024) {
    socket.terminate()
    return
  }
  socket.send(JSON.stringify(message))
}
