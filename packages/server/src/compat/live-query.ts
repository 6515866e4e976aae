import type { IncomingMessage } from 'node:http'
import type { FastifyInstance } from 'fastify'
import type { WebSocket } from 'ws'
import { findSession } from '../auth/sessions.ts'
import type { LiveHub } from '../live/hub.ts'
import { watchSessions } from '../live/session-watch.ts'
import { MAX_SUBSCRIPTIONS } from '../live/native-socket.ts'
import { readMessage, sendJson, type SocketHandler } from '../live/sockets.ts'
import { translateWhereObject } from '../objects/query.ts'
import { compatClassName } from './classes.ts'
import { TOKEN_PREFIX } from './call.ts'
import { ParseCode, toParseError } from './parse-error.ts'
import { toParseObject } from './parse-object.ts'
import { syncedView } from './synced-classes.ts'
import type { WireObject } from '../objects/rows.ts'

// Parse's LiveQuery protocol on the mount path (what `Moralis.Query#subscribe` and
// `Parse.LiveQueryClient` speak):
//   client: connect { applicationId, sessionToken?, installationId }, subscribe { requestId,
//           query: { className, where, fields?/keys? }, sessionToken? }, unsubscribe { requestId }
//   server: connected { clientId }, subscribed { clientId, requestId }, unsubscribed,
//           error { code, error, reconnect }, create|update|enter|leave|delete { clientId,
//           requestId, object, original? }
// Each event is filtered by the subscriber's read access (live/hub.ts); a subscription's own
// session token wins over the one sent at connect, as in Parse Server.

let nextClientId = 1

export function parseLiveQuerySocket(app: FastifyInstance, hub: LiveHub): SocketHandler {
  const appId = app.config.app.appId
  return (socket: WebSocket, _request: IncomingMessage) => {
    const clientId = nextClientId++
    let connected = false
    let connectToken: string | undefined
    const subscriptions = new Map<number, () => void>()

    const fail = (code: number, error: string, reconnect: boolean, requestId?: number) =>
      sendJson(socket, {
        op: 'error',
        clientId,
        code,
        error,
        reconnect,
        ...(requestId === undefined ? {} : { requestId }),
      })

    const sessions = watchSessions(socket, app.db, app.config.liveSessionCheckMs)
    const viewerOf = async (token: unknown): Promise<string | undefined> => {
      if (typeof token !== 'string' || token === '') return undefined
      const bare = token.startsWith(TOKEN_PREFIX) ? token.slice(TOKEN_PREFIX.length) : token
      const found = bare.length <= 200 ? await findSession(app.db, bare) : null
      if (!found)
        throw Object.assign(new Error('Invalid session token.'), {
          parseCode: ParseCode.INVALID_SESSION_TOKEN,
        })
      sessions.add(bare)
      return found.user.id
    }

    let queue: Promise<void> = Promise.resolve()
    socket.on('message', (data, isBinary) => {
      const message = readMessage(data, isBinary)
      if (!message) return fail(1, 'Messages are JSON objects with an "op".', false)
      // One message at a time, in order: a subscribe waits for the connect before it.
      queue = queue
        .then(() => handle(message))
        .catch((error: unknown) => {
          const requestId = typeof message.requestId === 'number' ? message.requestId : undefined
          const code = (error as { parseCode?: number }).parseCode
          if (code) return fail(code, (error as Error).message, false, requestId)
          const parsed = toParseError(error)
          if (parsed) return fail(parsed.code, parsed.message, false, requestId)
          app.log.error({ err: error }, 'live query failed')
          fail(1, 'The subscription could not be made.', true, requestId)
        })
    })
    socket.on('close', () => {
      for (const stop of subscriptions.values()) stop()
      subscriptions.clear()
    })

    async function handle(message: Record<string, unknown>) {
      switch (message.op) {
        case 'connect':
          if (message.applicationId !== appId) return fail(4, 'Invalid application id.', false)
          connectToken = typeof message.sessionToken === 'string' ? message.sessionToken : undefined
          await viewerOf(connectToken)
          connected = true
          sendJson(socket, { op: 'connected', clientId })
          return
        case 'subscribe': {
          if (!connected) return fail(4, 'Send connect first.', true)
          const requestId = message.requestId
          if (typeof requestId !== 'number')
            return fail(4, 'A subscription needs a numeric "requestId".', false)
          if (subscriptions.size >= MAX_SUBSCRIPTIONS && !subscriptions.has(requestId))
            return fail(
              ParseCode.REQUEST_LIMIT_EXCEEDED,
              `At most ${MAX_SUBSCRIPTIONS} subscriptions per connection.`,
              false,
              requestId,
            )
          const query = (message.query ?? {}) as {
            className?: unknown
            where?: unknown
            fields?: unknown
            keys?: unknown
          }
          if (typeof query.className !== 'string')
            return fail(4, 'A subscription names its "className".', false, requestId)
          const className = compatClassName(query.className)
          const fieldsValue = query.fields ?? query.keys
          const fields = Array.isArray(fieldsValue)
            ? fieldsValue.filter((f): f is string => typeof f === 'string')
            : undefined
          const view = syncedView(app, className)
          const given = query.where === undefined ? {} : (query.where as Record<string, unknown>)
          const condition = translateWhereObject((view ? view.where(given) : given) ?? {})
          const present = (object: WireObject) =>
            view
              ? view.toParse(toParseObject(object, view.keys(fields)))
              : toParseObject(object, fields)
          const viewerId = await viewerOf(message.sessionToken ?? connectToken)

          subscriptions.get(requestId)?.()
          subscriptions.set(
            requestId,
            hub.add({
              className,
              viewerId,
              condition,
              send: (op, object, original) =>
                sendJson(socket, {
                  op,
                  clientId,
                  requestId,
                  object: { className, ...present(object) },
                  ...(op === 'update' && original
                    ? { original: { className, ...present(original) } }
                    : {}),
                }),
            }),
          )
          sendJson(socket, { op: 'subscribed', clientId, requestId })
          return
        }
        case 'unsubscribe': {
          const requestId = message.requestId as number
          subscriptions.get(requestId)?.()
          subscriptions.delete(requestId)
          sendJson(socket, { op: 'unsubscribed', clientId, requestId })
          return
        }
        default:
          fail(4, 'Unknown "op": use connect, subscribe or unsubscribe.', false)
      }
    }
  }
}
