import type { FastifyBaseLogger } from 'fastify'
import type { Database } from '../db/client.ts'
import type { Cluster, Leadership } from '../db/cluster/cluster.ts'
import type { ObjectStore } from '../objects/object-store.ts'
import type { Sync } from './definition.ts'
import { polledHeads, subscribedHeads, type ChainHeads } from './heads.ts'
import { NodeClient } from './node-client.ts'
import { Syncer, type SyncStatus } from './syncer.ts'

// Runs the syncs, every chain at once. With several processes on one PostgreSQL exactly one of
// them writes each chain's syncs: the cluster's leader of `sync-chain:<chainId>`, whose lock
// PostgreSQL releases the moment that process dies; another then takes over within seconds. A
// leader that loses its lock stops writing and competes again. The leader of a chain follows its
// new heads once for all of its syncs (by subscription over a WebSocket node, heads.ts). On the
// embedded database there is one process, which runs them all. Syncs may be added and removed
// while it runs (watches made at run time, watches.ts): an added one starts at once where its
// chain is led, a removed one stops.

export interface SyncRunner {
  /** Every sync, with its progress (`writer: false` when another process runs it). */
  status(): (SyncStatus & { writer: boolean })[]
  /** Runs one more sync (its chain's leader starts it at once). */
  add(sync: Sync): void
  /** Stops the sync named `name`; resolves once it has stopped writing. */
  remove(name: string): Promise<void>
  stop(): Promise<void>
}

interface Running {
  syncer: Syncer
  client: NodeClient
  /** Aborts this sync alone (its chain's leadership goes on). */
  abort: AbortController
  /** Settles when its current run has returned. */
  done: Promise<void>
}

interface Chain {
  syncs: Map<string, Running>
  leadership: Leadership
  /** While this process leads the chain: its signal and heads, to start added syncs with. */
  led: { signal: AbortSignal; heads: ChainHeads } | undefined
}

export function startSyncs(options: {
  db: Database
  objects: ObjectStore
  syncs: readonly Sync[]
  upstreams: ReadonlyMap<number, readonly string[]>
  /** A WebSocket node per chain whose new heads the chain's syncs follow. */
  headUrls?: ReadonlyMap<number, string>
  log: FastifyBaseLogger
  /** Where one process at a time is chosen to run each chain's syncs. */
  cluster: Pick<Cluster, 'lead'>
}): SyncRunner {
  const chains = new Map<number, Chain>()

  // One run of a sync within its chain's leadership: until the leadership ends or the sync is
  // removed.
  const launch = (running: Running, led: NonNullable<Chain['led']>) => {
    const abort = new AbortController()
    running.abort = abort
    const both = AbortSignal.any([led.signal, abort.signal])
    running.done = running.syncer.run(both, led.heads.waiter()).catch((error: unknown) => {
      options.log.error({ err: error, sync: running.syncer.sync.name }, 'contract sync stopped')
    })
  }

  const chainOf = (chainId: number): Chain => {
    const known = chains.get(chainId)
    if (known) return known
    const chain: Chain = { syncs: new Map(), leadership: undefined!, led: undefined }
    chain.leadership = options.cluster.lead(`sync-chain:${chainId}`, async (signal) => {
      options.log.info({ chainId }, "this process now runs the chain's contract syncs")
      const url = options.headUrls?.get(chainId)
      const heads = url ? subscribedHeads(url, options.log, chainId) : polledHeads()
      chain.led = { signal, heads }
      try {
        for (const running of chain.syncs.values()) launch(running, chain.led)
        await new Promise<void>((resolve) => {
          if (signal.aborted) resolve()
          else signal.addEventListener('abort', () => resolve(), { once: true })
        })
        await Promise.all([...chain.syncs.values()].map((running) => running.done))
      } finally {
        chain.led = undefined
        heads.close()
      }
    })
    chain.leadership.done.catch((error: unknown) =>
      options.log.error({ err: error, chainId }, 'contract syncs stopped'),
    )
    chains.set(chainId, chain)
    return chain
  }

  const add = (sync: Sync) => {
    const chain = chainOf(sync.chainId)
    if (chain.syncs.has(sync.name)) return
    // Each sync has its own client (connections, answers of any size): one sync's large answer
    // or stalled call never holds up another's. No retries inside it: a refused range is read
    // again at once, smaller (syncer.ts), and any other failure after the sync's own backoff.
    const client = new NodeClient(options.upstreams.get(sync.chainId) ?? [])
    const running: Running = {
      syncer: new Syncer(options.db, options.objects, sync, client, options.log),
      client,
      abort: new AbortController(),
      done: Promise.resolve(),
    }
    chain.syncs.set(sync.name, running)
    if (chain.led) launch(running, chain.led)
  }

  for (const sync of options.syncs) add(sync)

  return {
    status: () =>
      [...chains.values()].flatMap((chain) =>
        [...chain.syncs.values()].map((running) => ({
          ...running.syncer.status(),
          writer: chain.leadership.leading,
        })),
      ),
    add,
    async remove(name) {
      for (const [chainId, chain] of chains) {
        const running = chain.syncs.get(name)
        if (!running) continue
        chain.syncs.delete(name)
        running.abort.abort()
        await running.done
        running.client.close()
        if (chain.syncs.size === 0) {
          // No sync left on the chain: stop competing for it (an added one competes anew).
          chains.delete(chainId)
          await chain.leadership.stop()
        }
      }
    },
    async stop() {
      await Promise.all([...chains.values()].map((chain) => chain.leadership.stop()))
      for (const chain of chains.values())
        for (const running of chain.syncs.values()) running.client.close()
    },
  }
}
