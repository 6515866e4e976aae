import type { FastifyBaseLogger } from 'fastify'
import type { Database } from '../db/client.ts'
import type { Cluster } from '../db/cluster/cluster.ts'
import type { ObjectStore } from '../objects/store.ts'
import type { Sync } from './definition.ts'
import { polledHeads, subscribedHeads } from './heads.ts'
import { NodeClient } from './node-client.ts'
import { Syncer, type SyncStatus } from './syncer.ts'

// Runs the declared syncs, every chain at once. With several processes on one PostgreSQL exactly
// one of them writes each chain's syncs: the cluster's leader of `sync-chain:<chainId>`, whose
// lock PostgreSQL releases the moment that process dies; another then takes over within seconds.
// A leader that loses its lock stops writing and competes again. The leader of a chain follows
// its new heads once for all of its syncs (by subscription over a WebSocket node, heads.ts). On
// the embedded database there is one process, which runs them all.

export interface SyncRunner {
  /** Every declared sync, with its progress (`writer: false` when another process runs it). */
  status(): (SyncStatus & { writer: boolean })[]
  stop(): Promise<void>
}

export function startSyncs(options: {
  db: Database
  objects: ObjectStore
  syncs: Sync[]
  upstreams: ReadonlyMap<number, readonly string[]>
  /** A WebSocket node per chain whose new heads the chain's syncs follow. */
  headUrls?: ReadonlyMap<number, string>
  log: FastifyBaseLogger
  /** Where one process at a time is chosen to run each chain's syncs. */
  cluster: Pick<Cluster, 'lead'>
}): SyncRunner {
  // Each sync has its own client (connections, answers of any size): one sync's large answer
  // or stalled call never holds up another's. No retries inside it: a refused range is read
  // again at once, smaller (syncer.ts), and any other failure after the sync's own backoff.
  const clients = options.syncs.map(
    (sync) => new NodeClient(options.upstreams.get(sync.chainId) ?? []),
  )
  const syncers = options.syncs.map(
    (sync, index) => new Syncer(options.db, options.objects, sync, clients[index]!, options.log),
  )
  const chains = [...new Set(options.syncs.map((sync) => sync.chainId))]
  const leaderships = new Map(
    chains.map((chainId) => {
      const mine = syncers.filter((syncer) => syncer.sync.chainId === chainId)
      const leadership = options.cluster.lead(`sync-chain:${chainId}`, async (signal) => {
        options.log.info({ chainId }, "this process now runs the chain's contract syncs")
        const url = options.headUrls?.get(chainId)
        const heads = url ? subscribedHeads(url, options.log, chainId) : polledHeads()
        try {
          await Promise.all(mine.map((syncer) => syncer.run(signal, heads.waiter())))
        } finally {
          heads.close()
        }
      })
      leadership.done.catch((error: unknown) =>
        options.log.error({ err: error, chainId }, 'contract syncs stopped'),
      )
      return [chainId, leadership] as const
    }),
  )

  return {
    status: () =>
      syncers.map((syncer) => ({
        ...syncer.status(),
        writer: leaderships.get(syncer.sync.chainId)!.leading,
      })),
    async stop() {
      await Promise.all([...leaderships.values()].map((leadership) => leadership.stop()))
      for (const client of clients) client.close()
    },
  }
}
