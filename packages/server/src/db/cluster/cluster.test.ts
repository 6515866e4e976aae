import net from 'node:net'
import { sql } from 'drizzle-orm'
import { freePort } from '@portico/test-kit/ports'
import { describe, expect, it } from 'vitest'
import { clusteredDatabase, databaseKinds, recordingLog } from '../../../test/helpers.ts'
import { advisoryLocks } from '../advisory-locks.ts'
import { openDatabase, type Database } from '../client.ts'
import { openCluster, type Cluster, type Codec } from './cluster.ts'
import { isRunning } from './peers.ts'

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows

const json: Codec<{ n: number }> = {
  encode: (messages) => messages.map((message) => JSON.stringify(message)),
  decode: (payload) => [JSON.parse(payload) as { n: number }],
}

/** A task that runs until its signal aborts, saying when it started and stopped. */
function task(events: string[], label: string) {
  return (signal: AbortSignal) =>
    new Promise<void>((resolve) => {
      events.push(`${label} runs`)
      signal.addEventListener('abort', () => {
        events.push(`${label} stops`)
        resolve()
      })
    })
}

describe('the cluster of the embedded database', () => {
  it('counts, limits sockets and tells news in this process alone', async () => {
    const { cluster, close } = await clusteredDatabase('pglite', { liveMaxSocketsPerAddress: 1 })
    try {
      expect(cluster.kind).toBe('memory')
      expect(cluster.processId).toMatch(/^[0-9a-f-]{36}$/)
      expect(cluster.windowCounter.shared).toBe(false)
      expect((await cluster.windowCounter.add('k', 2, 60_000)).count).toBe(2)
      expect((await cluster.windowCounter.add('k', 1, 60_000)).count).toBe(3)
      expect([
        await cluster.socketSlots.acquire('a'),
        await cluster.socketSlots.acquire('a'),
      ]).toEqual([true, false])

      // News reaches every listener as the very value published (never encoded), in order.
      const news = cluster.broadcast('news', json)
      const heard: { n: number }[] = []
      const stop = news.listen((message) => heard.push(message))
      const first = { n: 1 }
      await news.publish([first, { n: 2 }])
      expect(heard).toEqual([{ n: 1 }, { n: 2 }])
      expect(heard[0]).toBe(first)
      stop()
      await news.publish([{ n: 3 }])
      expect(heard).toHaveLength(2)
    } finally {
      await close()
    }
  })

  it('leads each name one task at a time, and stops them on close', async () => {
    const { cluster, close } = await clusteredDatabase('pglite')
    const events: string[] = []
    const one = cluster.lead('job', task(events, 'one'))
    await expect.poll(() => one.leading).toBe(true)
    // Another leadership of the same name waits for the first to end.
    let finish = () => {}
    const two = cluster.lead('job', async () => {
      events.push('two runs')
      await new Promise<void>((resolve) => (finish = resolve))
    })
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(two.leading).toBe(false)
    await one.stop()
    await expect.poll(() => two.leading, { timeout: 2_000 }).toBe(true)
    expect(events).toEqual(['one runs', 'one stops', 'two runs'])
    // A task that returns ends its leadership; one that fails rejects `done`.
    finish()
    await two.done
    expect(two.leading).toBe(false)
    const failing = cluster.lead('other', async () => {
      throw new Error('broken')
    })
    await expect(failing.done).rejects.toThrow('broken')
    // Closing the cluster stops what still runs.
    const three = cluster.lead('job', task(events, 'three'))
    await expect.poll(() => three.leading).toBe(true)
    await close()
    expect(events.slice(-2)).toEqual(['three runs', 'three stops'])
  })
})

const postgres = databaseKinds().includes('postgres')

/** The backend that holds the leadership lock of `name`. */
async function leaderPid(db: Database, name: string): Promise<number | undefined> {
  const rows = rowsOf<{ pid: number }>(
    await db.execute(sql`select pid from pg_locks
      where locktype = 'advisory' and granted and objsubid = 2
        and classid = ${advisoryLocks.leadership}::int::oid and objid = hashtext(${name})::oid`),
  )
  return rows[0]?.pid
}

/** A TCP proxy to PostgreSQL whose connections the test can cut, refusing new ones until restored. */
async function cuttableProxy(url: string) {
  const target = new URL(url)
  const port = await freePort()
  const sockets = new Set<net.Socket>()
  let server: net.Server | undefined
  const track = (socket: net.Socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
    // A cut connection errors on both ends: that is the point.
    socket.on('error', () => {})
  }
  const restore = () =>
    new Promise<void>((resolve) => {
      server = net.createServer((client) => {
        const upstream = net.connect(Number(target.port), target.hostname)
        track(client)
        track(upstream)
        client.pipe(upstream).pipe(client)
      })
      server.listen(port, '127.0.0.1', resolve)
    })
  await restore()
  const proxied = new URL(url)
  proxied.hostname = '127.0.0.1'
  proxied.port = String(port)
  return {
    url: proxied.toString(),
    restore,
    async cut() {
      for (const socket of sockets) socket.destroy()
      await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)))
      server = undefined
    },
  }
}

const terminate = (db: Database, pid: number) =>
  db.execute(sql`select pg_terminate_backend(${pid}::int)`)

async function running(db: Database, cluster: Cluster): Promise<boolean> {
  const rows = rowsOf<{ running: boolean }>(
    await db.execute(sql`select ${isRunning(cluster.processId)} as running`),
  )
  return rows[0]?.running === true
}

describe.runIf(postgres)('the cluster of processes on PostgreSQL', () => {
  it('tells news to every process, and says when some may have been missed', async () => {
    const a = await clusteredDatabase('postgres')
    const log = recordingLog()
    const b = await openCluster(a, { shared: {}, liveMaxSocketsPerAddress: 20 }, log)
    try {
      expect([a.cluster.kind, b.kind]).toEqual(['postgres', 'postgres'])
      expect(a.cluster.processId).not.toBe(b.processId)
      expect(a.cluster.windowCounter.shared).toBe(true)
      const heardA: number[] = []
      const heardB: number[] = []
      let gaps = 0
      const newsA = a.cluster.broadcast('news', json)
      const newsB = b.broadcast('news', json, () => gaps++)
      newsA.listen((message) => heardA.push(message.n))
      newsB.listen((message) => heardB.push(message.n))
      await Promise.all([newsA.ready, newsB.ready])
      expect(gaps).toBe(1) // its first connection: nothing could be known before it
      await newsA.publish([{ n: 1 }, { n: 2 }])
      await expect.poll(() => heardB).toEqual([1, 2])
      await expect.poll(() => heardA).toEqual([1, 2])

      // The LISTEN connections are cut: each opens another, and says news may have been lost.
      const pids = rowsOf<{ pid: number }>(
        await a.db.execute(sql`select pid from pg_stat_activity
          where datname = current_database() and query = 'listen news'`),
      ).map((row) => row.pid)
      expect(pids).toHaveLength(2)
      for (const pid of pids) await terminate(a.db, pid)
      await expect.poll(() => gaps, { timeout: 5_000 }).toBe(2)
      await newsA.publish([{ n: 3 }])
      await expect.poll(() => heardB).toEqual([1, 2, 3])
      // A payload that cannot be read is logged and dropped.
      await a.db.execute(sql`select pg_notify('news', 'not json')`)
      await expect
        .poll(() =>
          log.lines.some((line) => line.level === 'warn' && line.args[1] === 'unreadable news'),
        )
        .toBe(true)
    } finally {
      await b.close()
      await a.close()
    }
  })

  it('hands a leadership over when its leader loses its connections, or stops', async () => {
    const b = await clusteredDatabase('postgres')
    // A reaches PostgreSQL through a proxy that the test cuts, as a dead process or a lost
    // network would: its connections close and it cannot open others until the proxy is back.
    const proxy = await cuttableProxy(b.url!)
    const aDatabase = await openDatabase({ kind: 'postgres', url: proxy.url, poolSize: 2 })
    const a = await openCluster(
      { ...aDatabase, url: proxy.url },
      { shared: {}, liveMaxSocketsPerAddress: 20 },
      recordingLog(),
    )
    const events: string[] = []
    try {
      const leadA = a.lead('job', task(events, 'a'))
      await expect.poll(() => leadA.leading).toBe(true)
      const leadB = b.cluster.lead('job', task(events, 'b'))
      await new Promise((resolve) => setTimeout(resolve, 500))
      expect(leadB.leading).toBe(false)
      expect(await leaderPid(b.db, 'job')).toBeDefined()

      // A's connections die: its task is aborted, and B takes over.
      await proxy.cut()
      await expect.poll(() => leadB.leading, { timeout: 6_000 }).toBe(true)
      expect(leadA.leading).toBe(false)
      expect(events).toEqual(['a runs', 'a stops', 'b runs'])
      expect(await running(b.db, a)).toBe(false)

      // A can reach the database again: it registers once more and competes, but B leads.
      await proxy.restore()
      await expect.poll(() => running(b.db, a), { timeout: 5_000 }).toBe(true)
      await new Promise((resolve) => setTimeout(resolve, 2_500))
      expect(leadA.leading).toBe(false)

      // B stops: A takes the name back.
      await leadB.stop()
      await expect.poll(() => leadA.leading, { timeout: 6_000 }).toBe(true)
      expect(events).toEqual(['a runs', 'a stops', 'b runs', 'b stops', 'a runs'])
    } finally {
      await a.close()
      await aDatabase.close()
      await proxy.cut()
      await b.close()
    }
    expect(events.at(-1)).toBe('a stops')
  })

  it('releases a name when its task ends, and counts a process only while it runs', async () => {
    const a = await clusteredDatabase('postgres')
    const b = await openCluster(a, { shared: {}, liveMaxSocketsPerAddress: 20 }, recordingLog())
    try {
      const once = a.cluster.lead('once', async () => {})
      await once.done
      expect(await leaderPid(a.db, 'once')).toBeUndefined()
      // Two leaderships of one name in one process take turns too (the lock is reentrant).
      let release = () => {}
      const first = b.lead('turns', () => new Promise<void>((resolve) => (release = resolve)))
      await expect.poll(() => first.leading).toBe(true)
      const second = b.lead('turns', async () => {})
      await new Promise((resolve) => setTimeout(resolve, 300))
      expect(second.leading).toBe(false)
      release()
      await second.done

      expect(await running(a.db, b)).toBe(true)
      await b.close()
      expect(await running(a.db, b)).toBe(false)
      const rows = rowsOf<{ id: string }>(await a.db.execute(sql`select id from server_processes`))
      expect(rows.map((row) => row.id)).toEqual([a.cluster.processId])
    } finally {
      await b.close()
      await a.close()
    }
  })
})
