import { describe, expect, it } from 'vitest'
import { buildServer } from '../app.ts'
import { openDatabase } from '../db/client.ts'
import { databaseKinds, testConfig, testDatabase } from '../../test/helpers.ts'

// with PostgreSQL, several server processes share the rate-limit state.
describe.skipIf(!databaseKinds().includes('postgres'))(
  'rate limits shared through PostgreSQL',
  () => {
    it('counts the requests of two servers on one database together: sign-in and events', async () => {
      const shared = await testDatabase('postgres')
      const second = await openDatabase({ kind: 'postgres', url: shared.url!, poolSize: 2 })
      const base = testConfig()
      const config = { ...base, app: { ...base.app, authRateLimit: 3, eventsRateLimit: 10 } }
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
        // 30 events at once, half through each server: the shared limit of 10 holds exactly.
        const events = await Promise.all(
          Array.from({ length: 30 }, (_, i) => track(i % 2 ? a : b).then((r) => r.statusCode)),
        )
        expect(events.filter((status) => status === 202)).toHaveLength(10)
        expect(events.filter((status) => status === 429)).toHaveLength(20)
        expect((await track(a)).statusCode).toBe(429)
        expect((await track(b)).statusCode).toBe(429)
      } finally {
        await a.close()
        await b.close()
        await second.close()
        await shared.close()
      }
    })
  },
)
