import type { Database } from '../db/client.ts'
import type { Cluster, Codec } from '../db/cluster/cluster.ts'
import type { WireObject } from './rows.ts'

// Every committed change of an object, told to whoever listens (the live-query hub), on every
// process, the writer included: one path, whoever made the change. The news travels through the
// cluster (in memory on the embedded database, `pg_notify` on PostgreSQL). A notification
// carries at most 8000 bytes: changes travel in batches that fit, and a bigger change travels
// as its keys only, listeners reading the object's current state (its earlier state is then
// unknown to them).

export interface ObjectChange {
  kind: 'create' | 'update' | 'delete'
  className: string
  objectId: string
  /** The object before the change (update, delete); null when unknown. */
  before: WireObject | null
  /** The object after the change (create, update). */
  after: WireObject | null
}

type Listener = (change: ObjectChange) => void

export interface ChangeFeed {
  /** Resolves once this process hears the changes of the others. */
  readonly ready: Promise<void>
  /** Tells listeners (on every process) about committed changes. Never throws. */
  publish(changes: ObjectChange[]): Promise<void>
  /**
   * Hears every change; `wants` says which classes the listener cares about now (all when left
   * out), for `listens`.
   */
  listen(listener: Listener, wants?: (className: string) => boolean): () => void
  /**
   * Whether a change of `className` may be heard by anyone now: false only when every listener
   * is in this process and none wants the class (on PostgreSQL other processes may listen).
   */
  listens(className: string): boolean
  close(): Promise<void>
}

const CHANNEL = 'portico_object_changes'
const MAX_NOTIFY_BYTES = 7_800

type Slim = Omit<ObjectChange, 'before' | 'after'> & { slim: true }
type ReadObject = (keys: { className: string; objectId: string }) => Promise<WireObject | null>

/** Changes as notifications: several to a payload while they fit, too big ones as their keys. */
function changeCodec(readObject: ReadObject): Codec<ObjectChange> {
  return {
    encode(changes) {
      const payloads: string[] = []
      let batch: string[] = []
      let bytes = 2
      for (const change of changes) {
        let text = JSON.stringify(change)
        if (Buffer.byteLength(text) > MAX_NOTIFY_BYTES) {
          const slim: Slim = {
            kind: change.kind,
            className: change.className,
            objectId: change.objectId,
            slim: true,
          }
          text = JSON.stringify(slim)
        }
        const size = Buffer.byteLength(text) + 1
        if (batch.length && bytes + size > MAX_NOTIFY_BYTES) {
          payloads.push(`[${batch.join(',')}]`)
          batch = []
          bytes = 2
        }
        batch.push(text)
        bytes += size
      }
      if (batch.length) payloads.push(`[${batch.join(',')}]`)
      return payloads
    },
    async decode(payload) {
      const messages = JSON.parse(payload) as (ObjectChange | Slim)[]
      if (!Array.isArray(messages)) throw new Error('a change notification is not a list')
      const changes: ObjectChange[] = []
      for (const message of messages) {
        if (!('slim' in message)) {
          changes.push(message)
          continue
        }
        const { slim: _slim, ...keys } = message
        // Unreadable now, the object travels on as unknown rather than holding up the others.
        const after = message.kind === 'delete' ? null : await readObject(keys).catch(() => null)
        changes.push({ ...keys, before: null, after })
      }
      return changes
    },
  }
}

/**
 * Opens the change feed of a database on its cluster; the server does this once at start.
 * `readObject` reads an object whose change was too big to travel whole.
 */
export function openChangeFeed(
  db: Database,
  cluster: Pick<Cluster, 'broadcast' | 'kind'>,
  readObject: ReadObject,
): ChangeFeed {
  const news = cluster.broadcast(CHANNEL, changeCodec(readObject))
  const stops = new Set<() => void>()
  const wanting = new Set<(className: string) => boolean>()
  const feed: ChangeFeed = {
    ready: news.ready,
    async publish(changes) {
      if (changes.length === 0) return
      try {
        await news.publish(changes)
      } catch {
        // The write itself committed; live listeners miss this one news item.
      }
    },
    listen(listener, wants = () => true) {
      const stop = news.listen(listener)
      stops.add(stop)
      wanting.add(wants)
      return () => {
        stops.delete(stop)
        wanting.delete(wants)
        stop()
      }
    },
    listens(className) {
      if (cluster.kind !== 'memory') return true
      for (const wants of wanting) if (wants(className)) return true
      return false
    },
    async close() {
      for (const stop of stops) stop()
      stops.clear()
      wanting.clear()
    },
  }
  return feed
}
