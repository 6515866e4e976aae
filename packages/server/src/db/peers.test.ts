import { describe, expect, it } from 'vitest'
import { buildServer } from '../app.ts'
import { ConfigError } from '../config.ts'
import { openDatabase } from './client.ts'
import { databaseKinds, testConfig, testDatabase } from '../../test/helpers.ts'

// Processes on one PostgreSQL share limits, sessions and visitor ids, so the settings behind them
// must match: a process that differs from a live one refuses to start and names the settings.
describe.skipIf(!databaseKinds().includes('postgres'))('processes on one database', () => {
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
})
