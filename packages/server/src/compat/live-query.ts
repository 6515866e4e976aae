import type { IncomingMessage } from 'node:http'
import { isDeepStrictEqual } from 'node:util'
import type { WebSocket } from 'ws'
import { readMessages, sendJson, type SocketHandler } from '../live/sockets.ts'
import { MAX_SUBSCRIPTIONS, Subscriber } from '../live/subscriber.ts'
import type { FastifyBaseLogger } from 'fastify'
import type { ServerConfig } from '../config/server.ts'
import type { Sessions } from '../auth/sessions.ts'
import type { ObjectStore } from '../objects/object-store.ts'
import type { Sync } from '../sync/definition.ts'
import type { LiveHub } from '../live/hub.ts'
import type { RelationHolders } from './relation-queries.ts'
import { compatClassName } from './classes.ts'
import { TOKEN_PREFIX } from './call.ts'
import { ParseCode, toParseError } from './parse-error.ts'
import { toParseObject } from '../objects/parse-shape.ts'
import { syncedView } from './synced-classes.ts'
import { storedWhere } from './where.ts'
import type { WireObject } from '../objects/rows.ts'

// Parse's LiveQuery protocol on the mount path (what `Moralis.Query#subscribe` and
// `Parse.LiveQueryClient` speak):
//   client: connect { applicationId, sessionToken?, installationId }, subscribe { requestId,
//           query: { className, where, fields?/keys?, watch? }, sessionToken? },
//           unsubscribe { requestId }
//   server: connected { clientId }, subscribed { clientId, requestId }, unsubscribed,
//           error { code, error, reconnect }, create|update|enter|leave|delete { clientId,
//           requestId, object, original? }
// Each event is filtered by the subscriber's read access (live/hub.ts); a subscription's own
// session token wins over the one sent at connect, as in Parse Server. Sessions and
// subscriptions are kept as for `/api/live` (live/subscriber.ts). With `watch`, creates and
// updates are sent only when one of the watched fields changed (is set, for a create).

/** What a subscription's query may hold (`fields` is the older clients' `keys`). */
const QUERY_KEYS = new Set(['className', 'where', 'keys', 'fields', 'watch'])

const stringList = (value: unknown): string[] | undefined =>
  Array.isArray(value) ? value.filter((f): f is string => typeof f === 'string') : undefined

let nextClientId = 1

export interface ParseLiveQueryServices {
  config: ServerConfig
  liveHub: LiveHub
  sessions: Sessions
  log: FastifyBaseLogger
  syncs: readonly Sync[]
  objects: ObjectStore
  /** Relation members, read by the `where` pipeline. */
  relationHolders: RelationHolders
}

export function parseLiveQuerySocket(services: ParseLiveQueryServices): SocketHandler {
  const { config, log } = services
  const appId = config.app.appId
  return (socket: WebSocket, _request: IncomingMessage) => {
    const clientId = nextClientId++
    let connected = false
    let connectToken: string | undefined
    let installationId: string | undefined

    const fail = (code: number, error: string, reconnect: boolean, requestId?: number) => {
      sendJson(socket, {
        op: 'error',
        clientId,
        code,
        error,
        reconnect,
        ...(requestId === undefined ? {} : { requestId }),
      })
      // A client told to reconnect opens a new socket and subscribes again there without closing
      // this one: left open, it would hold an address's socket slot and send every event twice.
      if (reconnect) socket.close(1000)
    }

    const subscriber = new Subscriber(socket, {
      hub: services.liveHub,
      sessions: services.sessions,
      sessionCheckMs: config.liveSessionCheckMs,
    })
    /**
     * The token a connect carries, if it is a live session. The clients keep the token they
     * first connected with across signing out and in again (and send the current one with each
     * subscription): as in Parse Server, a connect with an ended session is a signed-out client.
     */
    const signedInToken = async (token: unknown): Promise<string | undefined> => {
      if (typeof token !== 'string' || token === '') return undefined
      const bare = token.startsWith(TOKEN_PREFIX) ? token.slice(TOKEN_PREFIX.length) : token
      return (await subscriber.userOf(bare)) === undefined ? undefined : token
    }
    /** Parse sends the client's installation id back with what it sends (after connect). */
    const send = (message: Record<string, unknown>) =>
      sendJson(socket, installationId === undefined ? message : { ...message, installationId })
    const viewerOf = async (token: unknown): Promise<string | undefined> => {
      if (typeof token !== 'string' || token === '') return undefined
      const bare = token.startsWith(TOKEN_PREFIX) ? token.slice(TOKEN_PREFIX.length) : token
      const userId = await subscriber.userOf(bare)
      if (userId === undefined)
        throw Object.assign(new Error('Invalid session token.'), {
          parseCode: ParseCode.INVALID_SESSION_TOKEN,
        })
      subscriber.watch(bare)
      return userId
    }

    readMessages(socket, {
      unreadable: () => fail(1, 'Messages are JSON objects with an "op".', false),
      handle,
      failed(error, message) {
        const requestId = typeof message.requestId === 'number' ? message.requestId : undefined
        const code = (error as { parseCode?: number }).parseCode
        if (code) return fail(code, (error as Error).message, false, requestId)
        const parsed = toParseError(error)
        if (parsed) return fail(parsed.code, parsed.message, false, requestId)
        log.error({ err: error }, 'live query failed')
        fail(1, 'The subscription could not be made.', true, requestId)
      },
    })

    async function handle(message: Record<string, unknown>) {
      switch (message.op) {
        case 'connect':
          if (message.applicationId !== appId) return fail(4, 'Invalid application id.', false)
          installationId =
            typeof message.installationId === 'string' && message.installationId.length <= 200
              ? message.installationId
              : undefined
          connectToken = await signedInToken(message.sessionToken)
          connected = true
          send({ op: 'connected', clientId })
          return
        case 'subscribe': {
          if (!connected) return fail(4, 'Send connect first.', true)
          const requestId = message.requestId
          if (typeof requestId !== 'number')
            return fail(4, 'A subscription needs a numeric "requestId".', false)
          if (subscriber.full(requestId))
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
            watch?: unknown
          }
          // Parse Server's answer, word for word: the clients know it, stop sending what it
          // refuses, reconnect and subscribe again.
          if (Object.keys(query).some((key) => !QUERY_KEYS.has(key)))
            return fail(1, 'Additional properties not allowed', true)
          if (typeof query.className !== 'string')
            return fail(4, 'A subscription names its "className".', false, requestId)
          const className = compatClassName(query.className)
          const fields = stringList(query.fields ?? query.keys)
          const watch = stringList(query.watch)
          const view = syncedView(services, className)
          const viewerId = await viewerOf(message.sessionToken ?? connectToken)
          // Sub-queries and relation members are read once, as the subscriber, when it subscribes.
          const { condition: where } = await storedWhere(
            { sources: services, viewer: viewerId, className: compatClassName },
            className,
            query.where,
          )
          const condition = services.objects.liveCondition(className, where)
          const shown = (object: WireObject, keys: string[] | undefined) =>
            view
              ? view.toParse(toParseObject(object, view.keys(keys)))
              : toParseObject(object, keys)
          const present = (object: WireObject) => shown(object, fields)
          /** Whether a create or update changed a watched field (always, without `watch`). */
          const watched = (object: WireObject, original: WireObject | null) => {
            if (!watch?.length) return true
            // The whole objects: a watched field need not be among those sent.
            const now = shown(object, undefined) as Record<string, unknown>
            const before = (original ? shown(original, undefined) : {}) as Record<string, unknown>
            return watch.some((field) => !isDeepStrictEqual(now[field], before[field]))
          }
          const named = (list?: string[]) => (view ? view.keys(list) : list)
          await services.objects.assertQueryable(viewerId, className, {
            where,
            keys: named(fields),
            watch: named(watch),
          })

          subscriber.subscribe(requestId, {
            className,
            viewerId,
            condition,
            send: (op, object, original) =>
              ((op !== 'create' && op !== 'update') || watched(object, original)) &&
              send({
                op,
                clientId,
                requestId,
                object: { className, ...present(object) },
                ...(op === 'update' && original
                  ? { original: { className, ...present(original) } }
                  : {}),
              }),
          })
          send({ op: 'subscribed', clientId, requestId })
          return
        }
        case 'unsubscribe': {
          const requestId = message.requestId as number
          subscriber.unsubscribe(requestId)
          send({ op: 'unsubscribed', clientId, requestId })
          return
        }
        default:
          fail(4, 'Unknown "op": use connect, subscribe or unsubscribe.', false)
      }
    }
  }
}
