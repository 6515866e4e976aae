import type { WebSocket } from 'ws'
import type { Sessions } from '../auth/sessions.ts'
import type { LiveHub, Subscription } from './hub.ts'
import { watchSessions } from './session-watch.ts'

// What both live-query protocols (Portico's `/api/live` and Parse's LiveQuery) do for one
// socket: find who its session tokens sign in, close it once one of those sessions ends, and
// keep its subscriptions with the hub until they are dropped or the socket closes. Each protocol
// keeps only its own message format.

/** Subscriptions one socket may hold: every change is matched against each of them. */
export const MAX_SUBSCRIPTIONS = 100

/** Longer strings are not session tokens: they are not looked up. */
export const MAX_TOKEN_LENGTH = 200

/** A subscription's id, chosen by the client. */
export type RequestId = number | string

export interface SubscriberOptions {
  hub: LiveHub
  sessions: Sessions
  /** How often the sessions a socket uses are checked again. */
  sessionCheckMs: number
}

export class Subscriber {
  private readonly subscriptions = new Map<RequestId, () => void>()
  private readonly watched: { add(token: string): void }

  constructor(
    socket: WebSocket,
    private readonly options: SubscriberOptions,
  ) {
    this.watched = watchSessions(socket, options.sessions, options.sessionCheckMs)
    socket.on('close', () => {
      for (const stop of this.subscriptions.values()) stop()
      this.subscriptions.clear()
    })
  }

  /** The user a session token signs in; undefined when no live session has it. */
  async userOf(token: string): Promise<string | undefined> {
    if (token.length > MAX_TOKEN_LENGTH) return undefined
    return (await this.options.sessions.find(token))?.user.id
  }

  /** Closes the socket (4001) once `token`'s session has ended: a subscription reads as its user. */
  watch(token: string): void {
    this.watched.add(token)
  }

  has(requestId: RequestId): boolean {
    return this.subscriptions.has(requestId)
  }

  /** Whether a subscription under a new `requestId` would pass the limit per socket. */
  full(requestId: RequestId): boolean {
    return this.subscriptions.size >= MAX_SUBSCRIPTIONS && !this.subscriptions.has(requestId)
  }

  /** Adds a subscription to the hub under `requestId`, in place of one it had. */
  subscribe(requestId: RequestId, subscription: Subscription): void {
    this.subscriptions.get(requestId)?.()
    this.subscriptions.set(requestId, this.options.hub.add(subscription))
  }

  unsubscribe(requestId: RequestId): void {
    this.subscriptions.get(requestId)?.()
    this.subscriptions.delete(requestId)
  }
}
