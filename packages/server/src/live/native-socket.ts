import type { IncomingMessage } from 'node:http'
import type { LiveServerMessage } from '@portico/sdk/wire'
import type { WebSocket } from 'ws'
import { sessionTokenOf } from '../auth/sessions.ts'
import { HttpError } from '../errors.ts'
import { assertClassName } from '../objects/names.ts'
import { parseWhere } from '../objects/condition.ts'
import type { FastifyBaseLogger } from 'fastify'
import type { ServerConfig } from '../config/server.ts'
import type { Sessions } from '../auth/sessions.ts'
import type { ObjectStore } from '../objects/object-store.ts'
import type { LiveHub } from './hub.ts'
import { checkMessage } from './messages.ts'
import { MAX_SUBSCRIPTIONS, MAX_TOKEN_LENGTH, Subscriber, type RequestId } from './subscriber.ts'
import { readMessages, sendJson, type SocketHandler } from './sockets.ts'

// Portico's own live-query protocol on `/api/live` (what the SDK's `subscribe` speaks), its
// messages described by the SDK's wire module (wire/live.ts):
//   client: { op: 'connect', token? } (optional, first), { op: 'subscribe', requestId, className, where? },
//           { op: 'unsubscribe', requestId }
//   server: { op: 'connected', userId }, { op: 'subscribed', requestId },
//           { op: 'error', requestId?, code, message },
//           { op: 'create' | 'update' | 'enter' | 'leave' | 'delete', requestId, object }
// A browser is signed in by its session cookie, but only when the page that opened the socket is
// one of the site's origins (otherwise any site could read a visitor's private objects through
// their cookie); other clients send their bearer token in `connect`.

export interface NativeLiveServices {
  config: ServerConfig
  liveHub: LiveHub
  sessions: Sessions
  log: FastifyBaseLogger
  objects: ObjectStore
}

export function nativeLiveSocket(services: NativeLiveServices): SocketHandler {
  const { config, log } = services
  const origins = new Set(config.app.publicOrigins)
  const plainAllowed = config.app.publicOrigins.some((o) => o.startsWith('http:'))
  return (socket: WebSocket, request: IncomingMessage) => {
    const send = (message: LiveServerMessage) => sendJson(socket, message)
    const fail = (code: string, message: string, requestId?: RequestId) =>
      send({ op: 'error', ...(requestId === undefined ? {} : { requestId }), code, message })
    const subscriber = new Subscriber(socket, {
      hub: services.liveHub,
      sessions: services.sessions,
      sessionCheckMs: config.liveSessionCheckMs,
    })
    const origin = request.headers.origin
    const cookieToken =
      typeof origin === 'string' && origins.has(origin)
        ? sessionTokenOf(request.headers.cookie, plainAllowed)
        : undefined
    if (cookieToken) subscriber.watch(cookieToken)
    let viewer: Promise<string | undefined> = cookieToken
      ? subscriber.userOf(cookieToken)
      : Promise.resolve(undefined)
    let connected = false

    readMessages(socket, {
      unreadable: () => fail('invalid_message', 'Messages are JSON objects with an "op".'),
      handle,
      failed(error, message) {
        const requestId = requestIdOf(message)
        if (error instanceof HttpError) return fail(error.code, error.message, requestId)
        log.error({ err: error }, 'live query failed')
        fail('internal', 'The subscription could not be made. Try again.', requestId)
      },
    })

    async function handle(received: Record<string, unknown>) {
      const checked = checkMessage(received)
      if ('refused' in checked) {
        const { code, message, aboutRequest } = checked.refused
        return fail(code, message, aboutRequest ? requestIdOf(received) : undefined)
      }
      const message = checked.valid
      switch (message.op) {
        case 'connect': {
          if (connected) return fail('invalid_message', 'Already connected.')
          connected = true
          const token = message.token
          // A longer token cannot be a session's: it is ignored, as one never sent.
          if (token !== undefined && token.length <= MAX_TOKEN_LENGTH) {
            viewer = subscriber.userOf(token)
            subscriber.watch(token)
          }
          send({ op: 'connected', userId: (await viewer) ?? null })
          return
        }
        case 'subscribe': {
          const { requestId } = message
          if (subscriber.has(requestId))
            return fail('invalid_message', 'This requestId is already subscribed.', requestId)
          if (subscriber.full(requestId))
            return fail(
              'too_many_subscriptions',
              `At most ${MAX_SUBSCRIPTIONS} subscriptions per connection.`,
              requestId,
            )
          const className = assertClassName(message.className)
          const where = message.where === undefined ? undefined : parseWhere(message.where)
          const condition = where && services.objects.liveCondition(className, where)
          const viewerId = await viewer
          await services.objects.assertQueryable(viewerId, className, { where })
          subscriber.subscribe(requestId, {
            className,
            viewerId,
            condition,
            send: (op, object) => send({ op, requestId, object }),
          })
          send({ op: 'subscribed', requestId })
          return
        }
        case 'unsubscribe': {
          subscriber.unsubscribe(message.requestId)
          send({ op: 'unsubscribed', requestId: message.requestId })
          return
        }
      }
    }
  }
}

/** The message's `requestId`, when it has one of the protocol's types. */
function requestIdOf(message: Record<string, unknown>): RequestId | undefined {
  const { requestId } = message
  return typeof requestId === 'number' || typeof requestId === 'string' ? requestId : undefined
}
