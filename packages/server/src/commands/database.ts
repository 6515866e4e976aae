import { loadConfig } from '../config/server.ts'
import { openDatabase, type DatabaseHandle } from '../db/client.ts'
import { lockDataDir } from '../db/lock.ts'

/** Opens the configured database (PostgreSQL, or the embedded one, locked while in use). */
export async function openConfiguredDatabase(
  env: Record<string, string | undefined>,
): Promise<DatabaseHandle> {
  const config = loadConfig(env)
  if (config.databaseUrl) return openDatabase({ kind: 'postgres', url: config.databaseUrl })
  const unlock = lockDataDir(config.dataDir)
  const handle = await openDatabase({ kind: 'pglite', dir: config.dataDir })
  return { ...handle, close: async () => (await handle.close(), unlock()) }
}

/** A mistake in the command line: printed without a stack trace. */
export class UsageError extends Error {
  override name = 'UsageError'
}
