#!/usr/bin/env node
import { ConfigError, loadConfig } from './config/server.ts'
import { DataDirLockedError, lockDataDir } from './db/lock.ts'
import { listenWhileStarting } from './http/starting.ts'
import { keepDatabaseCodeLean, keepMemoryLow } from './memory.ts'

// Only what opening the port needs is imported up front: the server's modules (Fastify, the
// embedded database, drizzle, viem, ...) take a second or more to load, and are imported once
// the port answers health checks (http/starting.ts).

/** `portico` (or `portico serve`): starts the server until SIGINT/SIGTERM. */
async function serve(): Promise<void> {
  const config = loadConfig()
  keepDatabaseCodeLean({ embedded: !config.databaseUrl })
  const unlock = config.databaseUrl ? () => {} : lockDataDir(config.dataDir)
  const starting = await listenWhileStarting({
    host: config.host,
    port: config.port,
    timeouts: config.timeouts,
    database: config.databaseUrl ? 'postgres' : 'pglite',
  })
  const address = starting.server.address()
  const port = typeof address === 'object' && address ? address.port : config.port
  const url = `http://${config.host}:${port}`
  console.log(`Portico is starting at ${url}`)
  await loadInTurns(databasePackages)
  const { openDatabase } = await import('./db/client.ts')
  // Opened while the rest loads (a new embedded database is unpacked meanwhile).
  const opening = config.databaseUrl
    ? openDatabase({ kind: 'postgres', url: config.databaseUrl })
    : openDatabase({ kind: 'pglite', dir: config.dataDir })
  // Its failure is met where it is awaited, below.
  opening.catch(() => {})
  await loadInTurns(serverPackages)
  const { buildServer } = await import('./app.ts')
  const database = await opening
  const app = await buildServer({ config, database, server: starting })

  let closing = false
  const shutdown = async (signal: string) => {
    if (closing) return
    closing = true
    app.log.info(`${signal} received, shutting down`)
    await app.close()
    // Fastify closes only a listener it opened itself.
    await new Promise((resolve) => {
      starting.server.close(resolve)
      starting.server.closeIdleConnections()
    })
    await database.close()
    unlock()
    process.exit(0)
  }
  process.on('SIGINT', () => void shutdown('SIGINT'))
  process.on('SIGTERM', () => void shutdown('SIGTERM'))

  // Every route ready: from here on they are served on the open port.
  await app.ready()
  keepMemoryLow()
  const where = config.databaseUrl ? 'PostgreSQL' : `embedded database in ${config.dataDir}`
  console.log(`Portico is running at ${url} (${where})`)
}

/**
 * The heaviest packages the server loads, each loaded in its turn with the event loop free
 * between them, so that the open port answers health checks while they load (together they take
 * a second or more). Each is loaded anyway: the order only cuts the wait into pieces.
 */
const databasePackages = ['@electric-sql/pglite', 'pg', 'drizzle-orm', 'drizzle-orm/pglite']
const serverPackages = ['fastify', 'ajv', 'viem', '@fastify/swagger', '@fastify/compress', 'ws']

async function loadInTurns(packages: readonly string[]): Promise<void> {
  for (const name of packages) {
    await import(name)
    await new Promise((resolve) => setImmediate(resolve))
  }
}

const commands: Record<string, () => Promise<void>> = {
  serve,
  'api-key': async () =>
    (await import('./commands/api-key.ts')).apiKeyCommand(process.argv.slice(3)),
  sync: async () => (await import('./commands/sync-status.ts')).syncCommand(process.argv.slice(3)),
  import: async () => {
    const { importCommand } = await import('./commands/import.ts')
    const outcomes = await importCommand(process.argv.slice(3))
    // 3: something was not imported (said above), so scripts can tell.
    if (outcomes.some((o) => o.error || o.report?.refused.length)) process.exitCode = 3
  },
  files: async () => {
    const { filesCommand } = await import('./commands/files.ts')
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
  // A usage mistake (commands/database.ts's UsageError, loaded with its command) by its name.
  if (
    error instanceof ConfigError ||
    error instanceof DataDirLockedError ||
    (error instanceof Error && error.name === 'UsageError')
  ) {
    console.error(error.message)
  } else {
    console.error(error)
  }
  process.exit(1)
})
