import type { FastifyBaseLogger } from 'fastify'
import { openMemoryCluster } from './memory.ts'
import { openPostgresCluster } from './postgres.ts'
import type { Cluster, ClusterDatabase, ClusterSettings } from './types.ts'

// The one switch between one process and several. The embedded database has one process, which
// keeps counters, socket slots and news in memory. On PostgreSQL any number of processes share
// the database, and this is everything they share besides its tables: counters in
// `rate_limits`, socket counts in `live_sockets`, news through NOTIFY (heard on one LISTEN
// connection), and, on one connection of session advisory locks, each process's registration
// (`server_processes`) and the leadership of tasks that one process runs at a time.

export type * from './types.ts'
export type { Leadership } from './lead.ts'
export type { SocketSlots } from './socket-slots.ts'
export type { WindowCounter } from './window-counter.ts'
export { DifferentSettingsError } from './peers.ts'

/**
 * Opens the cluster of `database`: in memory for the embedded database, shared through
 * PostgreSQL otherwise. On PostgreSQL this process joins the running ones, and is refused with
 * `DifferentSettingsError` when a running process has other values for `settings.shared`.
 *
 * @example
 * const cluster = await openCluster(database, { shared: sharedSettings(config), liveMaxSocketsPerAddress: 20 }, log)
 */
export async function openCluster(
  database: ClusterDatabase,
  settings: ClusterSettings,
  log: FastifyBaseLogger,
): Promise<Cluster> {
  if (database.kind === 'pglite') return openMemoryCluster(settings)
  if (!database.url) throw new Error('a PostgreSQL cluster needs the connection URL')
  return openPostgresCluster({ ...database, url: database.url }, settings, log)
}
