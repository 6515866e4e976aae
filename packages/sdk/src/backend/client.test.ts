import { afterEach, describe, expect, it } from 'vitest'
import { startFlakyServer, type FlakyServer } from '@portico/test-kit/flaky-server'
import { BackendError } from '../errors/backend.ts'
import { sdkVersion } from '../sdk-version.ts'
import { createBackendClient, type BackendClientConfig } from './client.ts'
import { backoffDelay } from './retry.ts'

let server: FlakyServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

function clientFor(flaky: FlakyServer, extra: Partial<BackendClientConfig> = {}) {
  const waits: number[] = []
  const client = createBackendClient({
    serverUrl: `${flaky.url}/`,
    appId: 'test-app',
    sleep: async (ms) => {
      waits.push(ms)
    },
    random: () => 0.5,
    ...extra,
  })
  return { client, waits }
}

describe('createBackendClient', () => {
  it('retries 5xx and dropped connections, reusing one Idempotency-Key, and answers once', async () => {
    server = await startFlakyServer(['status-500', 'destroy', 'status-503-html', 'destroy'])
    server.answer = () => ({ status: 201, body: { objectId: 'abc' } })
    const { client, waits } = clientFor(server)
    const result = await client.request<{ objectId: string }>('POST', '/api/classes/Thing', {
      body: { n: 1 },
    })
    expect(result).toEqual({ objectId: 'abc' })
    expect(server.seen).toHaveLength(5)
    const keys = new Set(server.seen.map((seen) => seen.headers['idempotency-key']))
    expect(keys.size).toBe(1)
    expect([...keys][0]).toMatch(/^[0-9a-f-]{36}$/)
    expect(server.seen.every((seen) => seen.body === '{"n":1}')).toBe(true)
    // Exponential with jitter 0.5: 250·(½+¼), 500·¾, 1000·¾, 2000·¾.
    expect(waits).toEqual([188, 375, 750, 1500])
  })

  it('gives up after 5 attempts with a typed error that keeps the cause', async () => {
    server = await startFlakyServer(['destroy', 'destroy', 'destroy', 'destroy', 'destroy'])
    const { client, waits } = clientFor(server)
    const error = (await client
      .request('POST', '/api/classes/Thing', { body: {} })
      .catch((e: unknown) => e)) as BackendError
    expect(server.seen).toHaveLength(5)
    expect(waits).toHaveLength(4)
    expect(error).toBeInstanceOf(BackendError)
    expect(error.name).toBe('BackendError')
    expect(error.code).toBe('no_response')
    expect(error.status).toBeUndefined()
    expect(error.attempts).toBe(5)
    expect(error.cause).toBeInstanceOf(Error)
    expect(error.message).toContain('POST /api/classes/Thing')
  })

  it('after 5 answers of 5xx reports the last status and the server code', async () => {
    server = await startFlakyServer(Array(5).fill('status-500'))
    const { client } = clientFor(server)
    const error = await client.request('GET', '/api/classes/Thing').catch((e) => e)
    expect(server.seen).toHaveLength(5)
    expect(error).toMatchObject({
      name: 'BackendError',
      status: 500,
      code: 'internal',
      shortMessage: 'Internal server error',
    })
  })

  it('does not retry 4xx and exposes the server error code', async () => {
    server = await startFlakyServer()
    server.answer = () => ({
      status: 403,
      body: { error: { code: 'forbidden', message: 'Not yours' } },
    })
    const { client, waits } = clientFor(server)
    const error = await client.request('DELETE', '/api/classes/Thing/1').catch((e) => e)
    expect(server.seen).toHaveLength(1)
    expect(waits).toEqual([])
    expect(error).toMatchObject({ status: 403, code: 'forbidden', shortMessage: 'Not yours' })
  })

  it('honours the attempts setting', async () => {
    server = await startFlakyServer(Array(5).fill('status-500'))
    const { client } = clientFor(server, { attempts: 2 })
    await expect(client.request('GET', '/x')).rejects.toBeInstanceOf(BackendError)
    expect(server.seen).toHaveLength(2)
  })

  it('sends the client version, query, bearer token; no Idempotency-Key on reads', async () => {
    server = await startFlakyServer()
    const { client } = clientFor(server, { token: 'tok' })
    await client.request('GET', '/api/classes/Thing', {
      query: { where: '{"a":1}', limit: 5, skip: undefined },
    })
    const [seen] = server.seen
    expect(seen?.path).toBe('/api/classes/Thing?where=%7B%22a%22%3A1%7D&limit=5')
    expect(seen?.headers['x-portico-client']).toBe(`sdk/${sdkVersion}`)
    expect(seen?.headers.authorization).toBe('Bearer tok')
    expect(seen?.headers['idempotency-key']).toBeUndefined()
    client.setToken(undefined)
    await client.request('POST', '/api/auth/logout', { idempotent: false })
    expect(server.seen[1]?.headers.authorization).toBeUndefined()
    expect(server.seen[1]?.headers['idempotency-key']).toBeUndefined()
  })

  it('uses a given idempotency key, and a fresh one per write otherwise', async () => {
    server = await startFlakyServer()
    const { client } = clientFor(server)
    await client.request('PUT', '/a', { body: {}, idempotent: 'my-key' })
    await client.request('POST', '/a', { body: {} })
    await client.request('POST', '/a', { body: {} })
    const keys = server.seen.map((seen) => seen.headers['idempotency-key'])
    expect(keys[0]).toBe('my-key')
    expect(keys[1]).not.toBe(keys[2])
  })

  it('sends raw bytes with their content type and resolves 204 to undefined', async () => {
    server = await startFlakyServer()
    server.answer = () => ({ status: 204 })
    const { client } = clientFor(server)
    const result = await client.request('POST', '/api/files/a.txt', {
      body: new TextEncoder().encode('hello'),
      contentType: 'text/plain',
    })
    expect(result).toBeUndefined()
    expect(server.seen[0]).toMatchObject({ body: 'hello' })
    expect(server.seen[0]?.headers['content-type']).toBe('text/plain')
  })

  it('stops retrying when the caller aborts', async () => {
    server = await startFlakyServer(Array(5).fill('status-500'))
    const controller = new AbortController()
    const { client } = clientFor(server, {
      sleep: async () => {
        controller.abort()
      },
    })
    await expect(client.request('GET', '/x', { signal: controller.signal })).rejects.toMatchObject({
      name: 'AbortError',
    })
    expect(server.seen).toHaveLength(1)
  })
})

describe('backoffDelay', () => {
  it('doubles per attempt within [step/2, step] and caps', () => {
    expect(backoffDelay(1, () => 0)).toBe(125)
    expect(backoffDelay(1, () => 0.999999)).toBe(250)
    expect(backoffDelay(3, () => 0)).toBe(500)
    expect(backoffDelay(10, () => 0.999999)).toBe(4000)
  })
})
