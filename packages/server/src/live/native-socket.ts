import type { IncomingMessage } from 'node:http'
import type { FastifyInstance } from 'fastify'
import type { WebSocket } from 'ws'
import { findSession, sessionTokenOf } from '../auth/sessions.ts'
import { HttpError } from '../errors.ts'
import { assertClassName } from '../objects/names.ts'
import { parseWhere } from '../objects/condition.ts'
import { translateWhere } from '../objects/query.ts'
import type { LiveHub } from './hub.ts'
import { watchSessions } from './session-watch.ts'
import { readMessage, sendJson, type SocketHandler } from './sockets.ts'

// Portico's own live-query protocol on `/api/live` (what the SDK's `subscribe` speaks):
//   client: { op: 'connect', token? } (optional, first), { op: 'subscribe', requestId, className, where? },
//           { op: 'unsubscribe', requestId }
//   server: { op: 'connected', userId }, { op: 'subscribed', requestId },
//           { op: 'error', requestId?, code, message },
//           { op: 'create' | 'update' | 'enter' | 'leave' | 'delete', requestId, object }
// A browser is signed in by its session cookie, but only when the page that opened the socket is
// one of the site's origins (otherwise any site could read a visitor's private objects through
// their cookie); other clients send their bearer token in `connect`.

export const MAX_SUBSCRIPTIONS = 100

export function nativeLiveSocket(app: FastifyInstance, hub: LiveHub): SocketHandler {
  const origins = new Set(app.config.app.publicOrigins)
  const plainAllowed = app.config.app.publicOrigins.some((o) => o.startsWith('http:'))
  return (socket: WebSocket, request: IncomingMessage) => {
    const origin = request.headers.origin
    const cookieToken =
      typeof origin === 'string' && origins.has(origin)
        ? sessionTokenOf(request.headers.cookie, plainAllowed)
        : undefined
    const sessions = watchSessions(socket, app.db, app.config.liveSessionCheckMs)
    if (cookieToken) sessions.add(cookieToken)
    let viewer: Promise<string | undefined> = cookieToken
      ? findSession(app.db, cookieToken).then((found) => found?.user.id)
      : Promise.resolve(undefined)
    const subscriptions = new Map<unknown, () => void>()
    let connected = false

    const fail = (code: string, message: string, requestId?: unknown) =>
      sendJson(socket, {
        op: 'error',
        ...(requestId === undefined ? {} : { requestId }),
        code,
        message,
      })

    let queue: Promise<void> = Promise.resolve()
    socket.on('message', (data, isBinary) => {
      const message = readMessage(data, isBinary)
      if (!message) return fail('invalid_message', 'Messages are JSON objects with an "op".')
      // One message at a time, in order: a subscribe waits for the connect before it.
      queue = queue
        .then(() => handle(message))
        .catch((error: unknown) => {
          if (error instanceof HttpError) return fail(error.code, error.message, message.requestId)
          app.log.error({ err: error }, 'live query failed')
          fail('internal', 'The subscription could not be made. Try again.', message.requestId)
        })
    })
    socket.on('close', () => {
      for (const stop of subscriptions.values()) stop()
      subscriptions.clear()
    })

    async function handle(message: Record<string, unknown>) {
      switch (message.op) {
        case 'connect': {
          if (connected) return fail('invalid_message', 'Already connected.')
          connected = true
          const token = message.token
          if (typeof token === 'string' && token.length <= 200) {
            viewer = findSession(app.db, token).then((found) => found?.user.id)
            sessions.add(token)
          }
          sendJson(socket, { op: 'connected', userId: (await viewer) ?? null })
          return
        }
        case 'subscribe': {
          const { requestId } = message
          if (typeof requestId !== 'number' && typeof requestId !== 'string')
            return fail('invalid_message', 'A subscription needs a "requestId".')
          if (subscriptions.has(requestId))
            return fail('invalid_message', 'This requestId is already subscribed.', requestId)
          if (subscriptions.size >= MAX_SUBSCRIPTIONS)
            return fail(
              'too_many_subscriptions',
              `At most ${MAX_SUBSCRIPTIONS} subscriptions per connection.`,
              requestId,
            )
          const className = assertClassName(message.className)
          const where = message.where === undefined ? undefined : message.where
          const condition = where === undefined ? undefined : translateWhere(parseWhere(where))
          const viewerId = await viewer
          subscriptions.set(
            requestId,
            hub.add({
              className,
              viewerId,
              condition,
              send: (op, object) => sendJson(socket, { op, requestId, object }),
            }),
          )
          sendJson(socket, { op: 'subscribed', requestId })
          return
        }
        case 'unsubscribe': {
          subscriptions.get(message.requestId)?.()
          subscriptions.delete(message.requestId)
          sendJson(socket, { op: 'unsubscribed', requestId: message.requestId })
          return
        }
        default:
          fail('invalid_message', 'Unknown "op": use connect, subscribe or unsubscribe.')
      }
    }
  }
}
