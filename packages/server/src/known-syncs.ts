import type { FastifyBaseLogger } from 'fastify'
import type { ServerConfig } from './config/server.ts'
import type { Cluster } from './db/cluster/types.ts'
import type { Database } from './db/client.ts'
import type { ClassRules } from './objects/class-rules.ts'
import type { SyncDefinition } from './functions.ts'
import { loadSiteModule } from './site-module.ts'
import { checkSync } from './sync/definition.ts'
import { LiveSyncs } from './sync/live-syncs.ts'
import { Watches } from './sync/watches.ts'

// The syncs a server started with a configuration runs, and so the classes only they write:
// the site module's (FUNCTIONS_MODULE), then the running watches kept in the database. The
// server builds its list here; a command that writes objects without a server (the import)
// reads the same list once, so it refuses exactly what the server's console refuses.

/** The site's syncs, checked against the configured nodes (a server refuses to start otherwise). */
export function siteSyncs(config: ServerConfig, definitions: readonly SyncDefinition[]): LiveSyncs {
  const chains = new Set(config.rpc.upstreams.keys())
  return new LiveSyncs(definitions.map((definition) => checkSync(definition, chains)))
}

/** The store's rules for the synced classes, as a server started now with `config` has them. */
export async function syncedClassRulesNow(
  config: ServerConfig,
  db: Database,
  cluster: Pick<Cluster, 'broadcast'>,
  log: FastifyBaseLogger,
): Promise<ClassRules> {
  const syncs = siteSyncs(config, (await loadSiteModule(config.functionsModule)).syncs)
  const watches = new Watches({
    db,
    cluster,
    syncs,
    upstreams: config.rpc.upstreams,
    localChainId: config.sync.localChainId,
    log,
  })
  try {
    await watches.reload()
  } finally {
    await watches.close()
  }
  return syncs.classRules
}
