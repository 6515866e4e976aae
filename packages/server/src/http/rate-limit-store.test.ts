import { describe, expect, it } from 'vitest'
import { buildServer } from '../app.ts'
import { openDatabase } from '../db/client.ts'
import { startMisbehavingNode } from '@portico/test-kit/misbehaving-node'
import { databaseKinds, testConfig, testDatabase, wellInsideAMinute } from '../../test/helpers.ts'
import { rpcTestConfig } from '../../test/rpc.ts'
import { createApiKey } from '../rpc/api-keys.ts'

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
        await wellInsideAMinute()
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

    it("counts the RPC gateway's calls of two servers together, a batch as its calls", async () => {
      const node = await startMisbehavingNode('ok')
      const shared = await testDatabase('postgres')
      const second = await openDatabase({ kind: 'postgres', url: shared.url!, poolSize: 2 })
      const config = {
        ...testConfig(),
        rpc: rpcTestConfig({ 7: [node.url] }, { rateLimitPerKey: 150 }),
      }
      const a = await buildServer({ config, database: shared, logger: false })
      const b = await buildServer({ config, database: second, logger: false })
      try {
        const { key } = await createApiKey(shared.db, 'two servers')
        const batch = Array.from({ length: 100 }, (_, id) => ({
          jsonrpc: '2.0',
          id,
          method: 'eth_blockNumber',
        }))
        const send = (app: typeof a) =>
          app.inject({
            method: 'POST',
            url: '/api/rpc/7',
            headers: { 'content-type': 'application/json', 'x-api-key': key },
            payload: JSON.stringify(batch),
          })
        await wellInsideAMinute()
        expect((await send(a)).statusCode).toBe(200)
        // 100 calls spent through a; 100 more through b would pass 150.
        const refused = await send(b)
        expect(refused.statusCode).toBe(429)
        expect(refused.json().error.message).toMatch(/150 calls per minute/)
      } finally {
        await a.close()
        await b.close()
        await second.close()
        await shared.close()
        await node.close()
      }
    })
  },
)
