import type { FastifyBaseLogger } from 'fastify'
import pg from 'pg'
import { createPublicClient, fallback, http, type PublicClient } from 'viem'
import type { Database } from '../db/client.ts'
import type { ObjectStore } from '../objects/store.ts'
import type { Sync } from './definition.ts'
import { Syncer, type SyncStatus } from './syncer.ts'

// Runs the declared syncs. With several processes on one PostgreSQL exactly one of them syncs
// each contract: it holds a session advisory lock on a connection of its own, which PostgreSQL
// releases the moment that process dies; the others try for free locks every few seconds and
// take over. On the embedded database there is one process, which runs them all.

export interface SyncRunner {
  /** Every declared sync, with its progress (`writer: false` when another process runs it). */
  status(): (SyncStatus & { writer: boolean })[]
  stop(): Promise<void>
}

const LOCK_SPACE = 7405
const TAKE_OVER_MS = 2_000

export function startSyncs(options: {
  db: Database
  objects: ObjectStore
  syncs: Sync[]
  upstreams: ReadonlyMap<number, readonly string[]>
  log: FastifyBaseLogger
  /** PostgreSQL's URL when several processes may share the database. */
  postgresUrl?: string | undefined
}): SyncRunner {
  const controller = new AbortController()
  const clients = new Map<number, PublicClient>()
  const clientFor = (chainId: number) => {
    let client = clients.get(chainId)
    if (!client) {
      const urls = options.upstreams.get(chainId) ?? []
      // No retries inside viem: a refused range is retried at once, smaller (syncer.ts), and
      // any other failure by the sync's own backoff.
      client = createPublicClient({
        transport: fallback(
          urls.map((url) =>
            http(url, { timeout: 15_000, retryCount: 0, batch: { batchSize: 100 } }),
          ),
        ),
      }) as PublicClient
      clients.set(chainId, client)
    }
    return client
  }
  const syncers = options.syncs.map(
    (sync) => new Syncer(options.db, options.objects, sync, clientFor(sync.chainId), options.log),
  )
  const running = new Map<string, Promise<void>>()
  const start = (syncer: Syncer) => running.set(syncer.sync.name, syncer.run(controller.signal))

  let locks: pg.Client | undefined
  let timer: NodeJS.Timeout | undefined
  if (!options.postgresUrl) {
    for (const syncer of syncers) start(syncer)
  } else if (syncers.length) {
    const url = options.postgresUrl
    const claim = async () => {
      try {
        if (!locks) {
          const client = new pg.Client({ connectionString: url })
          client.on('error', () => {})
          // Lost connection: its locks are gone, so this process stops writing and competes again.
          client.on('end', () => {
            if (locks === client) locks = undefined
          })
          await client.connect()
          locks = client
        }
        for (const syncer of syncers) {
          if (running.has(syncer.sync.name)) continue
          const { rows } = await locks.query<{ held: boolean }>(
            'select pg_try_advisory_lock($1, hashtext($2)) as held',
            [LOCK_SPACE, `sync:${syncer.sync.name}`],
          )
          if (rows[0]?.held) {
            options.log.info({ sync: syncer.sync.name }, 'this process now runs the contract sync')
            start(syncer)
          }
        }
      } catch (error) {
        options.log.warn({ err: error }, 'contract sync lock check failed')
      }
      if (!controller.signal.aborted) timer = setTimeout(() => void claim(), TAKE_OVER_MS)
    }
    void claim()
  }

  return {
    status: () =>
      syncers.map((syncer) => ({ ...syncer.status(), writer: running.has(syncer.sync.name) })),
    async stop() {
      controller.abort()
      clearTimeout(timer)
      await Promise.all(running.values())
      await locks?.end().catch(() => {})
    },
  }
}
