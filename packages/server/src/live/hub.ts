import type { LiveEventMessage } from '@portico/sdk/wire'
import type { SQL } from 'drizzle-orm'
import type { ObjectChange, ChangeFeed } from '../objects/changes.ts'
import type { WireObject } from '../objects/rows.ts'
import type { ObjectStore } from '../objects/object-store.ts'

// Live queries: subscriptions to the objects of a class that match a `where`, as a viewer may
// read them. Every committed change (from any process, through the change feed) is matched
// against the subscriptions of its class by the object store (`matches`), which evaluates the
// very conditions that queries use on the object's state before and after. So a live query
// matches exactly what a query would find, `$regex` included, with no second matcher in
// JavaScript.

/** What a subscriber is told (the protocol's event names, in the SDK's wire module). */
export type LiveEvent = LiveEventMessage['op']

export interface Subscription {
  className: string
  /** The subscriber's user id; null for an anonymous visitor. */
  viewerId: string | undefined
  /** The translated `where`; undefined matches every object. */
  condition: SQL | undefined
  send(event: LiveEvent, object: WireObject, original: WireObject | null): void
}

/** Subscriptions evaluated per statement. */
const CHUNK = 100

export class LiveHub {
  private readonly byClass = new Map<string, Set<Subscription>>()
  private queue: Promise<void> = Promise.resolve()
  private readonly stopListening: () => void

  constructor(
    private readonly objects: ObjectStore,
    feed: ChangeFeed,
    private readonly onError: (error: unknown) => void = () => {},
  ) {
    // Changes are matched one after another so that subscribers see them in commit order.
    this.stopListening = feed.listen(
      (change) => {
        // A class no one subscribes to: nothing to match (most of a contract sync's rows).
        if (!this.byClass.has(change.className)) return
        this.queue = this.queue.then(() => this.dispatch(change)).catch(this.onError)
      },
      (className) => this.byClass.has(className),
    )
  }

  add(subscription: Subscription): () => void {
    let set = this.byClass.get(subscription.className)
    if (!set) this.byClass.set(subscription.className, (set = new Set()))
    set.add(subscription)
    return () => {
      set.delete(subscription)
      if (set.size === 0 && this.byClass.get(subscription.className) === set)
        this.byClass.delete(subscription.className)
    }
  }

  /** Subscriptions held by this process's sockets. */
  get size(): number {
    let total = 0
    for (const set of this.byClass.values()) total += set.size
    return total
  }

  close(): void {
    this.stopListening()
    this.byClass.clear()
  }

  private async dispatch(change: ObjectChange): Promise<void> {
    const subscriptions = [...(this.byClass.get(change.className) ?? [])]
    for (let i = 0; i < subscriptions.length; i += CHUNK) {
      const chunk = subscriptions.slice(i, i + CHUNK)
      const [before, after] = await Promise.all([
        change.before ? this.objects.matches(change.before, chunk) : chunk.map(() => false),
        change.after ? this.objects.matches(change.after, chunk) : chunk.map(() => false),
      ])
      const events = chunk.map((_s, index) => eventFor(change, before[index]!, after[index]!))
      const stillRead = await this.stillReadable(
        change,
        chunk.filter((_s, index) => events[index] === 'leave'),
      )
      await Promise.all(
        chunk.map(async (subscription, index) => {
          const event = events[index]
          if (!event) return
          // A `leave` carries what the subscriber may read of the object: as it is now when
          // they still may (it only left their `where`), else as it was before the change, so
          // nothing the change wrote reaches someone it hid the object from.
          const object =
            event === 'delete' || (event === 'leave' && !stillRead.has(subscription))
              ? change.before
              : change.after
          // Without the fields the class's permissions hide from the subscriber.
          const { viewerId } = subscription
          subscription.send(
            event,
            await this.objects.visibleTo(object!, viewerId),
            event === 'update' && change.before
              ? await this.objects.visibleTo(change.before, viewerId)
              : null,
          )
        }),
      )
    }
  }

  /** The leaving subscriptions whose subscriber may still read the object after the change. */
  private async stillReadable(
    change: ObjectChange,
    leaving: Subscription[],
  ): Promise<Set<Subscription>> {
    if (!change.after || leaving.length === 0) return new Set()
    const readable = await this.objects.matches(
      change.after,
      leaving.map((subscription) => ({ ...subscription, condition: undefined })),
    )
    return new Set(leaving.filter((_s, index) => readable[index]))
  }
}

/** The event a subscriber sees, from whether the object matched before and after the change. */
function eventFor(change: ObjectChange, before: boolean, after: boolean): LiveEvent | undefined {
  if (change.kind === 'create') return after ? 'create' : undefined
  if (change.kind === 'delete') return before ? 'delete' : undefined
  if (change.before === null) return after ? 'update' : undefined
  if (before && after) return 'update'
  if (after) return 'enter'
  if (before) return 'leave'
  return undefined
}
