import type { Database } from '../db/client.ts'
import type { Cluster, Codec } from '../db/cluster/cluster.ts'
import type { WireObject } from './rows.ts'

// Every committed change of an object, told to whoever listens (the live-query hub), on every
// process, the writer included: one path, whoever made the change. The news travels through the
// cluster (in memory on the embedded database, `pg_notify` on PostgreSQL). A notification
// carries at most 8000 bytes: changes travel in batches that fit, and a bigger change travels
// as its keys only, listeners reading the object's current state (its earlier state is then
// unknown to them). Many creates of one class in a row (a contract sync's range) travel as
// lists of their ids: a process reads those objects only when one of its listeners wants the
// class, so rows no one listens to cost a few bytes each instead of their whole document.

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
/** Creates of one class, as their ids. */
type Created = { kind: 'create'; className: string; objectIds: string[] }
type ReadObject = (keys: { className: string; objectId: string }) => Promise<WireObject | null>

/** Creates of one class in a row from which they travel as lists of ids. */
export const CREATES_AS_IDS = 50

/**
 * Changes as notifications: several to a payload while they fit, too big ones as their keys,
 * runs of creates of one class as lists of ids; `wanted` says whether a class's objects are
 * worth reading here.
 */
function changeCodec(
  readObject: ReadObject,
  wanted: (className: string) => boolean,
): Codec<ObjectChange> {
  return {
    encode(changes) {
      const payloads: string[] = []
      let batch: string[] = []
      let bytes = 2
      const add = (text: string) => {
        const size = Buffer.byteLength(text) + 1
        if (batch.length && bytes + size > MAX_NOTIFY_BYTES) {
          payloads.push(`[${batch.join(',')}]`)
          batch = []
          bytes = 2
        }
        batch.push(text)
        bytes += size
      }
      for (let i = 0; i < changes.length;) {
        const change = changes[i]!
        let end = i + 1
        if (change.kind === 'create')
          while (
            end < changes.length &&
            changes[end]!.kind === 'create' &&
            changes[end]!.className === change.className
          )
            end++
        if (end - i >= CREATES_AS_IDS) {
          const head = `{"kind":"create","className":${JSON.stringify(change.className)},"objectIds":[`
          let ids: string[] = []
          let size = Buffer.byteLength(head) + 3
          for (let n = i; n < end; n++) {
            const id = JSON.stringify(changes[n]!.objectId)
            const idSize = Buffer.byteLength(id) + 1
            if (ids.length && size + idSize > MAX_NOTIFY_BYTES - 2) {
              add(`${head}${ids.join(',')}]}`)
              ids = []
              size = Buffer.byteLength(head) + 3
            }
            ids.push(id)
            size += idSize
          }
          add(`${head}${ids.join(',')}]}`)
          i = end
          continue
        }
        for (; i < end; i++) {
          const change = changes[i]!
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
          add(text)
        }
      }
      if (batch.length) payloads.push(`[${batch.join(',')}]`)
      return payloads
    },
    async decode(payload) {
      const messages = JSON.parse(payload) as (ObjectChange | Slim | Created)[]
      if (!Array.isArray(messages)) throw new Error('a change notification is not a list')
      const changes: ObjectChange[] = []
      for (const message of messages) {
        if ('objectIds' in message) {
          const { className } = message
          if (!wanted(className)) continue
          // Read together (the store batches its reads); unreadable ones travel on as unknown.
          const objects = await Promise.all(
            message.objectIds.map((objectId) =>
              readObject({ className, objectId }).catch(() => null),
            ),
          )
          message.objectIds.forEach((objectId, n) =>
            changes.push({ kind: 'create', className, objectId, before: null, after: objects[n]! }),
          )
          continue
        }
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
  const stops = new Set<() => void>()
  const wanting = new Set<(className: string) => boolean>()
  const wantedHere = (className: string) => {
    for (const wants of wanting) if (wants(className)) return true
    return false
  }
  const news = cluster.broadcast(CHANNEL, changeCodec(readObject, wantedHere))
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
      return cluster.kind !== 'memory' || wantedHere(className)
    },
    async close() {
      for (const stop of stops) stop()
      stops.clear()
      wanting.clear()
    },
  }
  return feed
}
