import type { FastifyBaseLogger } from 'fastify'
import type { Database } from '../db/client.ts'
import type { Cluster } from '../db/cluster/cluster.ts'
import type { ObjectStore } from '../objects/store.ts'
import type { Sync } from './definition.ts'
import { NodeClient } from './node-client.ts'
import { Syncer, type SyncStatus } from './syncer.ts'

// Runs the declared syncs. With several processes on one PostgreSQL exactly one of them syncs
// each contract: the cluster's leader of `sync:<name>`, whose lock PostgreSQL releases the moment
// that process dies; another then takes over within seconds. A leader that loses its lock stops
// writing and competes again. On the embedded database there is one process, which runs them all.

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
  log: FastifyBaseLogger
  /** Where one process at a time is chosen to run each sync. */
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
  const leaderships = syncers.map((syncer) => {
    const leadership = options.cluster.lead(`sync:${syncer.sync.name}`, async (signal) => {
      options.log.info({ sync: syncer.sync.name }, 'this process now runs the contract sync')
      await syncer.run(signal)
    })
    leadership.done.catch((error: unknown) =>
      options.log.error({ err: error, sync: syncer.sync.name }, 'contract sync stopped'),
    )
    return leadership
  })

  return {
    status: () =>
      syncers.map((syncer, index) => ({
        ...syncer.status(),
        writer: leaderships[index]!.leading,
      })),
    async stop() {
      await Promise.all(leaderships.map((leadership) => leadership.stop()))
      for (const client of clients) client.close()
    },
  }
}
