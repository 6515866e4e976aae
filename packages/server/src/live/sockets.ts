import type { IncomingMessage } from 'node:http'
import type { Duplex } from 'node:stream'
import type { FastifyInstance } from 'fastify'
import { WebSocketServer, type WebSocket } from 'ws'

// WebSocket endpoints of the server (live queries), by exact path. The upgrade is answered by
// the `ws` library on the server's own HTTP listener; any other upgrade is refused.

/** Largest message a client may send (a subscription with its `where`). */
export const MAX_MESSAGE_BYTES = 64 * 1024

export type SocketHandler = (socket: WebSocket, request: IncomingMessage) => void

export interface SocketOptions {
  /** Most open sockets per client address (each can carry up to 100 subscriptions). */
  maxPerAddress: number
  /** The client's address of an upgrade request (the proxy's `X-Forwarded-For` when trusted). */
  clientAddress: (request: IncomingMessage) => string
}

export function attachSockets(
  app: FastifyInstance,
  handlers: Map<string, SocketHandler>,
  options: SocketOptions,
): void {
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES })
  const open = new Map<string, number>()
  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    let path: string
    try {
      path = new URL(request.url ?? '/', 'http://localhost').pathname.replace(/\/+$/, '') || '/'
    } catch {
      path = ''
    }
    const handler = handlers.get(path)
    if (!handler) {
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n')
      return
    }
    // Every change is matched against every subscription: one client cannot open without bound.
    const address = options.clientAddress(request)
    const count = open.get(address) ?? 0
    if (count >= options.maxPerAddress) {
      socket.end('HTTP/1.1 429 Too Many Requests\r\nConnection: close\r\nContent-Length: 0\r\n\r\n')
      return
    }
    open.set(address, count + 1)
    const release = () => {
      const left = (open.get(address) ?? 1) - 1
      if (left <= 0) open.delete(address)
      else open.set(address, left)
    }
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
  app.server.on('upgrade', onUpgrade)
  app.addHook('onClose', async () => {
    app.server.off('upgrade', onUpgrade)
    for (const client of wss.clients) client.terminate()
    await new Promise<void>((resolve) => wss.close(() => resolve()))
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
