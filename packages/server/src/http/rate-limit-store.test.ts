import { describe, expect, it } from 'vitest'
import { buildServer } from '../app.ts'
import { openDatabase } from '../db/client.ts'
import { databaseKinds, testConfig, testDatabase } from '../../test/helpers.ts'

// with PostgreSQL, several server processes share the rate-limit state.
describe.skipIf(!databaseKinds().includes('postgres'))(
  'rate limits shared through PostgreSQL',
  () => {
    it('counts sign-in requests of two servers on one database together; events per process', async () => {
      const shared = await testDatabase('postgres')
      const second = await openDatabase({ kind: 'postgres', url: shared.url!, poolSize: 2 })
      const base = testConfig()
      const config = { ...base, app: { ...base.app, authRateLimit: 3, eventsRateLimit: 2 } }
      const a = await buildServer({ config, database: shared, logger: false })
      const b = await buildServer({ config, database: second, logger: false })
      try {
        const nonce = (app: typeof a) =>
          app.inject({ method: 'POST', url: '/api/auth/nonce', payload: {} })
        const codes = [
          (await nonce(a)).statusCode,
          (await nonce(b)).statusCode,
          (await nonce(a)).statusCode,
          (await nonce(b)).statusCode,
          (await nonce(a)).statusCode,
        ]
        expect(codes).toEqual([200, 200, 200, 429, 429])
        const track = (app: typeof a) =>
          app.inject({
            method: 'POST',
            url: '/api/events',
            payload: { subdomain: 'a', event: 'e' },
          })
        const events = [
          (await track(a)).statusCode,
          (await track(a)).statusCode,
          (await track(a)).statusCode,
        ]
        expect(events).toEqual([202, 202, 429])
        expect((await track(b)).statusCode).toBe(202)
      } finally {
        await a.close()
        await b.close()
        await second.close()
        await shared.close()
      }
    })
  },
)
