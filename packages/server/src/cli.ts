#!/usr/bin/env node
import { buildServer } from './app.ts'
import { apiKeyCommand } from './commands/api-key.ts'
import { UsageError } from './commands/database.ts'
import { importCommand } from './commands/import.ts'
import { filesCommand } from './commands/files.ts'
import { syncCommand } from './commands/sync-status.ts'
import { ConfigError, loadConfig } from './config/server.ts'
import { openDatabase } from './db/client.ts'
import { DataDirLockedError, lockDataDir } from './db/lock.ts'

/** `portico` (or `portico serve`): starts the server until SIGINT/SIGTERM. */
async function serve(): Promise<void> {
  const config = loadConfig()
  const unlock = config.databaseUrl ? () => {} : lockDataDir(config.dataDir)
  const database = config.databaseUrl
    ? await openDatabase({ kind: 'postgres', url: config.databaseUrl })
    : await openDatabase({ kind: 'pglite', dir: config.dataDir })
  const app = await buildServer({ config, database })

  let closing = false
  const shutdown = async (signal: string) => {
    if (closing) return
    closing = true
    app.log.info(`${signal} received, shutting down`)
    await app.close()
    await database.close()
    unlock()
    process.exit(0)
  }
  process.on('SIGINT', () => void shutdown('SIGINT'))
  process.on('SIGTERM', () => void shutdown('SIGTERM'))

  await app.listen({ host: config.host, port: config.port })
  const address = app.server.address()
  const port = typeof address === 'object' && address ? address.port : config.port
  const where = config.databaseUrl ? 'PostgreSQL' : `embedded database in ${config.dataDir}`
  console.log(`Portico is running at http://${config.host}:${port} (${where})`)
}

const commands: Record<string, () => Promise<void>> = {
  serve,
  'api-key': () => apiKeyCommand(process.argv.slice(3)),
  sync: () => syncCommand(process.argv.slice(3)),
  import: async () => {
    const outcomes = await importCommand(process.argv.slice(3))
    // 3: something was not imported (said above), so scripts can tell.
    if (outcomes.some((o) => o.error || o.report?.refused.length)) process.exitCode = 3
  },
  files: async () => {
    // Ctrl-C stops after the file being moved; a new run goes on from there.
    const stop = new AbortController()
    process.once('SIGINT', () => stop.abort())
    await filesCommand(process.argv.slice(3), { signal: stop.signal })
  },
}

const name = process.argv[2] ?? 'serve'
const command = commands[name]
if (!command) {
  console.error(`Unknown command "${name}". Commands: ${Object.keys(commands).join(', ')}`)
  process.exit(2)
}
command().catch((error: unknown) => {
  if (
    error instanceof ConfigError ||
    error instanceof DataDirLockedError ||
    error instanceof UsageError
  ) {
    console.error(error.message)
  } else {
    console.error(error)
  }
  process.exit(1)
})
