import { randomUUID } from 'node:crypto'
import { EventEmitter } from 'node:events'
import { sql } from 'drizzle-orm'
import type { FastifyBaseLogger } from 'fastify'
import pg from 'pg'
import { advisoryLocks } from '../advisory-locks.ts'
import type { Database } from '../client.ts'
import { compete, type Leadership } from './lead.ts'
import { DifferentSettingsError, joinProcesses, leaveProcesses, lockRegistration } from './peers.ts'
import { databaseSocketSlots } from './socket-slots.ts'
import type { Broadcast, Cluster, ClusterDatabase, ClusterSettings, Codec } from './types.ts'
import { databaseWindowCounter } from './window-counter.ts'

// The processes on one PostgreSQL. Besides the pool, each keeps two connections of its own:
// one that LISTENs on every channel of news, and one that holds its session advisory locks (its
// registration and the leaderships it holds). Either, when lost, is opened again a second later:
// news sent meanwhile is lost (each channel's `onGap` runs), and so are the locks (the tasks
// they guarded are aborted, and the registration is taken again).

const RECONNECT_MS = 1_000
/** How often a process tries for a leadership another process holds. */
const TAKE_OVER_MS = 2_000

export async function openPostgresCluster(
  database: ClusterDatabase & { url: string },
  settings: ClusterSettings,
  log: FastifyBaseLogger,
): Promise<Cluster> {
  const { db, url } = database
  let processId = ''
  const locks = lockConnection(url, log, async (client, first) => {
    if (first) {
      // A new id whose lock no running process holds (hashes of two ids may collide).
      for (let attempt = 0; !processId; attempt++) {
        const id = randomUUID()
        if (await lockRegistration(client, id)) processId = id
        else if (attempt === 9) throw new Error('no free registration lock among 10 ids')
      }
      await joinProcesses(db, processId, settings.shared)
      return
    }
    // The connection just lost may still hold the lock until PostgreSQL notices it gone (this
    // process counts as running meanwhile): this connection is of use once it holds it again.
    if (!(await lockRegistration(client, processId))) {
      throw new Error('the registration lock is still held by the lost connection')
    }
    await joinProcesses(db, processId, settings.shared).catch((error: unknown) => {
      if (!(error instanceof DifferentSettingsError)) throw error
      log.error({ err: error }, 'a process with other settings started while this one was away')
    })
  })
  try {
    await locks.session()
  } catch (error) {
    await locks.close()
    throw error
  }

  const listener = listenConnection(url, log)
  const leaderships = new Set<Leadership>()
  /** Names led here now: the session's locks are reentrant, so this process keeps its own count. */
  const led = new Set<string>()
  let closing: Promise<void> | undefined

  const take = async (name: string) => {
    if (led.has(name)) return undefined
    led.add(name)
    try {
      const session = await locks.session()
      const { rows } = await session.client.query<{ held: boolean }>(
        'select pg_try_advisory_lock($1, hashtext($2)) as held',
        [advisoryLocks.leadership, name],
      )
      if (!rows[0]?.held) {
        led.delete(name)
        return undefined
      }
      return {
        lost: session.lost,
        async release() {
          led.delete(name)
          if (session.lost.aborted) return
          await session.client
            .query('select pg_advisory_unlock($1, hashtext($2))', [advisoryLocks.leadership, name])
            .catch((error: unknown) => log.warn({ err: error, lead: name }, 'unlock failed'))
        },
      }
    } catch (error) {
      led.delete(name)
      throw error
    }
  }

  return {
    kind: 'postgres',
    processId,
    windowCounter: databaseWindowCounter(database.relaxed ?? db),
    socketSlots: databaseSocketSlots(db, processId, settings.liveMaxSocketsPerAddress),
    broadcast: (name, codec, onGap) =>
      postgresBroadcast(name, codec, {
        // A notification commits a transaction of its own; the news of a change already
        // committed need not wait for the disk (lost in a crash, it is lost with its listeners).
        notifyOn: database.relaxed ?? db,
        listener,
        log,
        onGap,
      }),
    lead(name, run) {
      const leadership = compete(run, {
        retryMs: TAKE_OVER_MS,
        take: () => take(name),
        onTakeError: (error) => log.warn({ err: error, lead: name }, 'leadership check failed'),
      })
      leaderships.add(leadership)
      const forget = () => void leaderships.delete(leadership)
      void leadership.done.then(forget, forget)
      return leadership
    },
    close: () =>
      (closing ??= (async () => {
        await Promise.all([...leaderships].map((leadership) => leadership.stop()))
        await listener.close()
        await leaveProcesses(db, processId).catch((error: unknown) =>
          log.warn({ err: error }, 'leaving the processes on the database failed'),
        )
        await locks.close()
      })()),
  }
}

function postgresBroadcast<T>(
  name: string,
  codec: Codec<T>,
  options: {
    notifyOn: Database
    listener: ReturnType<typeof listenConnection>
    log: FastifyBaseLogger
    onGap: (() => void) | undefined
  },
): Broadcast<T> {
  const emitter = new EventEmitter().setMaxListeners(0)
  const hear = (payload: string) => {
    void Promise.resolve()
      .then(() => codec.decode(payload))
      .then(
        (messages) => {
          for (const message of messages) emitter.emit('message', message)
        },
        (error: unknown) => options.log.warn({ err: error, channel: name }, 'unreadable news'),
      )
  }
  const ready = options.listener.add(name, hear, options.onGap)
  return {
    ready,
    async publish(messages) {
      const payloads = codec.encode(messages)
      if (payloads.length === 0) return
      await options.notifyOn.execute(
        sql`select pg_notify(${name}, p) from unnest(${sql.raw('ARRAY[')}${sql.join(
          payloads.map((p) => sql`${p}::text`),
          sql`, `,
        )}${sql.raw(']')}) as p`,
      )
    },
    listen(listener) {
      emitter.on('message', listener)
      return () => emitter.off('message', listener)
    },
  }
}

const CHANNEL_NAME = /^[a-z_][a-z0-9_]{0,62}$/

/** One connection that LISTENs on every channel added, opened again whenever it is lost. */
function listenConnection(url: string, log: FastifyBaseLogger) {
  const channels = new Map<string, { hear(payload: string): void; onGap?: () => void }[]>()
  let client: pg.Client | undefined
  let closed = false
  let retry: NodeJS.Timeout | undefined

  const connect = async () => {
    if (closed) return
    const next = new pg.Client({ connectionString: url, keepAlive: true })
    next.on('error', (error) => log.warn({ err: error }, 'the LISTEN connection failed'))
    next.on('end', () => {
      if (closed || client !== next) return
      client = undefined
      retry = setTimeout(() => void connect(), RECONNECT_MS)
    })
    next.on('notification', (note) => {
      if (!note.payload) return
      for (const channel of channels.get(note.channel) ?? []) channel.hear(note.payload)
    })
    try {
      await next.connect()
      for (const name of channels.keys()) await next.query(`listen ${name}`)
      client = next
      for (const list of channels.values()) for (const channel of list) channel.onGap?.()
    } catch (error) {
      log.warn({ err: error }, 'opening the LISTEN connection failed')
      // Already broken: the error that matters is the one just logged.
      await next.end().catch(() => {})
      if (!closed) retry = setTimeout(() => void connect(), RECONNECT_MS)
    }
  }
  const first = connect()
  // One statement at a time on the connection (node-postgres queues overlapping ones itself, but
  // that is deprecated): LISTENs asked for together run one after another.
  let queue: Promise<unknown> = Promise.resolve()
  const listen = (name: string): Promise<unknown> => {
    const run = queue.then(() => client?.query(`listen ${name}`))
    queue = run.catch(() => undefined)
    return run
  }

  return {
    /** Hears `name` from now on; resolves once it is listened to (or will be, on reconnection). */
    async add(name: string, hear: (payload: string) => void, onGap?: () => void): Promise<void> {
      if (!CHANNEL_NAME.test(name)) throw new Error(`not a channel name: ${name}`)
      const list = channels.get(name) ?? []
      channels.set(name, [...list, { hear, onGap }])
      await first
      await listen(name).catch((error: unknown) => {
        // The connection was lost: its replacement listens on every channel.
        log.warn({ err: error, channel: name }, 'LISTEN failed')
      })
    },
    async close() {
      closed = true
      clearTimeout(retry)
      await first
      await client?.end().catch((error: unknown) => log.warn({ err: error }, 'closing LISTEN'))
    },
  }
}

interface LockSession {
  client: pg.Client
  /** Aborts when the connection is lost, and its locks with it. */
  lost: AbortSignal
}

/**
 * The connection of this process's session advisory locks. `onConnect` runs on every new
 * connection before anyone uses it (`first` on the very first), to take the locks that must be
 * held all along.
 */
function lockConnection(
  url: string,
  log: FastifyBaseLogger,
  onConnect: (client: pg.Client, first: boolean) => Promise<void>,
) {
  let session: LockSession | undefined
  let connecting: Promise<LockSession> | undefined
  let retry: NodeJS.Timeout | undefined
  let closed = false
  let opened = 0

  const open = async (): Promise<LockSession> => {
    const client = new pg.Client({ connectionString: url, keepAlive: true })
    const lost = new AbortController()
    client.on('error', (error) => log.warn({ err: error }, 'the lock connection failed'))
    client.on('end', () => {
      lost.abort()
      if (session?.client !== client) return
      session = undefined
      if (!closed) retry = setTimeout(reconnect, RECONNECT_MS)
    })
    try {
      await client.connect()
      await onConnect(client, opened++ === 0)
      if (lost.signal.aborted) throw new Error('the lock connection closed as it opened')
      session = { client, lost: lost.signal }
      return session
    } catch (error) {
      // The error that matters is the one thrown; this connection is of no further use.
      await client.end().catch(() => {})
      throw error
    }
  }
  const connect = () => {
    connecting ??= open().finally(() => (connecting = undefined))
    return connecting
  }
  function reconnect() {
    if (closed) return
    connect().catch((error: unknown) => {
      log.warn({ err: error }, 'opening the lock connection failed')
      if (!closed) retry = setTimeout(reconnect, RECONNECT_MS)
    })
  }

  return {
    /** The connection, opened first when there is none. */
    session: (): Promise<LockSession> => (session ? Promise.resolve(session) : connect()),
    async close() {
      closed = true
      clearTimeout(retry)
      // A connection still opening is ended by whoever awaits it, or below once it is open.
      await connecting?.catch(() => {})
      const last = session
      session = undefined
      await last?.client.end().catch((error: unknown) => log.warn({ err: error }, 'closing locks'))
    },
  }
}
