import { EventEmitter } from 'node:events'
import { sql } from 'drizzle-orm'
import type { Database } from '../db/client.ts'
import { listenOn } from '../db/listen.ts'
import type { WireObject } from './rows.ts'

// Every committed change of an object, told to whoever listens (the live-query hub). On the
// embedded database there is one process and the news stays in memory. On PostgreSQL several
// processes share the store, so a change goes out through `pg_notify` and every process, the
// writer included, hears it on a dedicated LISTEN connection: one path, whoever made the change.
// A notification carries at most 8000 bytes: changes travel in batches that fit, and a bigger
// change travels as its keys only, listeners reading the object's current state (its earlier
// state is then unknown to them).

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
  /** Tells listeners (on every process) about committed changes. Never throws. */
  publish(changes: ObjectChange[]): Promise<void>
  listen(listener: Listener): () => void
  close(): Promise<void>
}

const CHANNEL = 'portico_object_changes'
const MAX_NOTIFY_BYTES = 7_800

function memoryFeed(): ChangeFeed {
  const emitter = new EventEmitter().setMaxListeners(0)
  return {
    async publish(changes) {
      for (const change of changes) emitter.emit('change', change)
    },
    listen(listener) {
      emitter.on('change', listener)
      return () => emitter.off('change', listener)
    },
    async close() {
      emitter.removeAllListeners()
    },
  }
}

type Slim = Omit<ObjectChange, 'before' | 'after'> & { slim: true }

/** PostgreSQL: NOTIFY to publish, a LISTEN connection (re-opened when lost) to hear. */
function postgresFeed(db: Database, url: string, readObject: ReadObject): ChangeFeed {
  const local = memoryFeed()

  const deliver = async (payload: string) => {
    let messages: (ObjectChange | Slim)[]
    try {
      messages = JSON.parse(payload) as (ObjectChange | Slim)[]
    } catch {
      return
    }
    if (!Array.isArray(messages)) return
    for (const message of messages) {
      if ('slim' in message) {
        const after = message.kind === 'delete' ? null : await readObject(message).catch(() => null)
        const { slim: _slim, ...keys } = message
        await local.publish([{ ...keys, before: null, after }])
      } else await local.publish([message])
    }
  }

  const listener = listenOn(url, CHANNEL, (payload) => void deliver(payload))

  return {
    async publish(changes) {
      if (changes.length === 0) return
      // Several changes share a notification (a JSON array) while they fit in one.
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
      try {
        await db.execute(
          sql`select pg_notify(${CHANNEL}, p) from unnest(${sql.raw('ARRAY[')}${sql.join(
            payloads.map((p) => sql`${p}::text`),
            sql`, `,
          )}${sql.raw(']')}) as p`,
        )
      } catch {
        // The write itself committed; live listeners miss this one news item.
      }
    },
    listen: (listener) => local.listen(listener),
    async close() {
      await listener.close()
      await local.close()
    },
  }
}

type ReadObject = (keys: { className: string; objectId: string }) => Promise<WireObject | null>

const feeds = new WeakMap<Database, ChangeFeed>()

/** Opens the change feed of a database; the server does this once at start. */
export function openChangeFeed(
  db: Database,
  options:
    | { kind: 'pglite' }
    | {
        kind: 'postgres'
        url: string
        readObject: ReadObject
        /**
         * Where the notifications are sent from: a NOTIFY commits a transaction of its own, and
         * the news of a change already committed need not wait for the disk (lost in a crash,
         * it is lost with the listeners that would have heard it).
         */
        notifyOn?: Database | undefined
      },
): ChangeFeed {
  const feed =
    options.kind === 'postgres'
      ? postgresFeed(options.notifyOn ?? db, options.url, options.readObject)
      : memoryFeed()
  feeds.set(db, feed)
  return feed
}

/** Tells the database's listeners about committed changes; nothing when no feed is open. */
export function publishChanges(db: Database, changes: ObjectChange[]): Promise<void> {
  return feeds.get(db)?.publish(changes) ?? Promise.resolve()
}
