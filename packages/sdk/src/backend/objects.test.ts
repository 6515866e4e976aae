import { afterEach, describe, expect, it } from 'vitest'
import { startFlakyServer, type FlakyServer } from '@portico/test-kit/flaky-server'
import { BackendError, BatchError } from '../errors/backend.ts'
import { createBackendClient } from './client.ts'
import { saveAll, saveObject } from './objects.ts'

// The SDK's request shapes against a scripted server; the same functions run against the real
// server on PGlite and PostgreSQL in packages/server/src/objects/sdk.test.ts.

let server: FlakyServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

const wire = (n: number) => ({
  objectId: `id${n}`,
  className: 'Item',
  owner: 'u1',
  publicRead: false,
  createdAt: '2024-01-01T00:00:00.000Z',
  updatedAt: '2024-01-01T00:00:00.000Z',
  data: { n, when: { __type: 'Date', iso: '2024-01-02T00:00:00.000Z' } },
})

describe('objects', () => {
  it('saveObject posts encoded data for a new object and puts for a saved one', async () => {
    server = await startFlakyServer()
    server.answer = () => ({ status: 200, body: wire(1) })
    const client = createBackendClient({ serverUrl: server.url, appId: 'a' })
    const saved = await saveObject(client, { className: 'Item', data: { when: new Date(0) } })
    expect(saved.createdAt).toEqual(new Date('2024-01-01T00:00:00Z'))
    expect(saved.data.when).toEqual(new Date('2024-01-02T00:00:00Z'))
    await saveObject(client, { ...saved, publicRead: true })
    expect(server.seen.map((s) => `${s.method} ${s.path}`)).toEqual([
      'POST /api/classes/Item',
      'PUT /api/classes/Item/id1',
    ])
    expect(JSON.parse(server.seen[0]!.body)).toEqual({
      data: { when: { __type: 'Date', iso: '1970-01-01T00:00:00.000Z' } },
    })
  })

  it('saveAll splits into batches of 20 and reports failures in input order', async () => {
    server = await startFlakyServer()
    server.answer = (request) => {
      const { requests } = JSON.parse(request.body) as {
        requests: { body: { data: { n: number } } }[]
      }
      return {
        status: 200,
        body: {
          results: requests.map(({ body }) =>
            body.data.n === 7
              ? { status: 400, body: { error: { code: 'invalid_value', message: 'bad' } } }
              : { status: 201, body: wire(body.data.n) },
          ),
        },
      }
    }
    const client = createBackendClient({ serverUrl: server.url, appId: 'a' })
    const objects = Array.from({ length: 45 }, (_, n) => ({ className: 'Item', data: { n } }))
    const error = (await saveAll(client, objects).catch((e: unknown) => e)) as BatchError
    expect(server.seen.map((s) => JSON.parse(s.body).requests.length)).toEqual([20, 20, 5])
    expect(error).toBeInstanceOf(BatchError)
    expect(error.shortMessage).toBe('1 of 45 operations failed')
    expect(error.results).toHaveLength(45)
    expect(error.results[7]).toBeInstanceOf(BackendError)
    expect(error.results[7]).toMatchObject({ status: 400, code: 'invalid_value' })
    expect(
      error.results.map((r, i) => (i === 7 ? 7 : (r as { data: { n: number } }).data.n)),
    ).toEqual(objects.map((o) => o.data.n))
  })

  it('saveAll that fails part-way reports what was stored, what failed and what was not sent', async () => {
    server = await startFlakyServer()
    let batches = 0
    server.answer = (request) => {
      batches++
      if (batches > 1)
        return { status: 503, body: { error: { code: 'internal', message: 'down' } } }
      const { requests } = JSON.parse(request.body) as {
        requests: { body: { data: { n: number } } }[]
      }
      return {
        status: 200,
        body: { results: requests.map(({ body }) => ({ status: 201, body: wire(body.data.n) })) },
      }
    }
    const client = createBackendClient({
      serverUrl: server.url,
      appId: 'a',
      attempts: 2,
      sleep: async () => {},
    })
    const objects = Array.from({ length: 45 }, (_, n) => ({ className: 'Item', data: { n } }))
    const error = (await saveAll(client, objects).catch((e: unknown) => e)) as BatchError
    expect(error).toBeInstanceOf(BatchError)
    expect(error.results).toHaveLength(45)
    expect(error.succeeded.map((s) => s.index)).toEqual(objects.slice(0, 20).map((o) => o.data.n))
    expect(error.failed.map((f) => f.index)).toEqual(objects.slice(20).map((o) => o.data.n))
    expect(error.failed[0]!.error).toMatchObject({ status: 503, code: 'internal' })
    expect(error.failed.at(-1)!.error).toMatchObject({ code: 'not_sent' })
    // Two attempts of the second batch; the third batch was never sent.
    expect(server.seen).toHaveLength(3)
  })
})
