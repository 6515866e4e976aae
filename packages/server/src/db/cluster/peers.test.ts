import { afterAll, describe, expect, it } from 'vitest'
import { buildServer } from '../../app.ts'
import { ConfigError } from '../../config/server.ts'
import { openDatabase } from '../client.ts'
import { databaseKinds, testConfig, testDatabase } from '../../../test/helpers.ts'
import { startServer, type ServerProcess } from '../../../test/server-process.ts'

// Processes on one PostgreSQL share limits, sessions and visitor ids, so the settings behind them
// must match: a process that differs from a running one refuses to start and names the settings.
// A process counts as running while its connections are open, so one killed with -9 stops
// counting at once.
describe.skipIf(!databaseKinds().includes('postgres'))('processes on one database', () => {
  const servers: ServerProcess[] = []
  afterAll(async () => {
    for (const server of servers) server.child.kill('SIGKILL')
    await Promise.all(servers.map((server) => server.exited))
  })
  const launch = (env: Record<string, string>) => {
    const server = startServer(env)
    servers.push(server)
    return server
  }

  it('refuses a second process whose APP_ID or PUBLIC_ORIGINS differ, naming them', async () => {
    const shared = await testDatabase('postgres')
    const second = await openDatabase({ kind: 'postgres', url: shared.url!, poolSize: 2 })
    const base = testConfig()
    try {
      const first = await buildServer({ config: base, database: shared, logger: false })
      // The same settings: welcome.
      const twin = await buildServer({ config: base, database: second, logger: false })
      await twin.close()

      const other = {
        ...base,
        app: { ...base.app, appId: 'another-app', publicOrigins: ['https://other.example'] },
      }
      const refused = await buildServer({ config: other, database: second, logger: false }).then(
        () => undefined,
        (error: unknown) => error,
      )
      expect(refused).toBeInstanceOf(ConfigError)
      expect((refused as Error).message).toMatch(
        /settings differ from the server already running on this database: APP_ID, PUBLIC_ORIGINS\./,
      )

      // Once the first process has stopped, the other settings may start.
      await first.close()
      const later = await buildServer({ config: other, database: second, logger: false })
      await later.close()
    } finally {
      await second.close()
      await shared.close()
    }
  })

  it('starts at once beside a process killed with -9, and still refuses a live one', async () => {
    const database = await testDatabase('postgres')
    const base = testConfig()
    const env = (batch: number) => ({
      DATABASE_URL: database.url!,
      PUBLIC_ORIGINS: base.app.publicOrigins.join(','),
      BATCH_MAX_REQUESTS: String(batch),
    })
    try {
      const killed = launch(env(50))
      await killed.url
      killed.child.kill('SIGKILL')
      await killed.exited

      // Restarted at once with a setting changed: the killed process no longer counts.
      const restarted = launch(env(60))
      await restarted.url

      // A live process with another value is still refused, and the setting named.
      const refused = await buildServer({
        config: { ...base, batchMaxRequests: 70 },
        database,
        logger: false,
      }).then(
        () => undefined,
        (error: unknown) => error,
      )
      expect(refused).toBeInstanceOf(ConfigError)
      expect((refused as Error).message).toMatch(
        /settings differ from the server already running on this database: BATCH_MAX_REQUESTS\./,
      )
      restarted.child.kill('SIGKILL')
      await restarted.exited
    } finally {
      await database.close()
    }
  })
})
