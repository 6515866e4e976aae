import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FastifyInstance } from 'fastify'
import { sql } from 'drizzle-orm'
import {
  createBackendClient,
  type BackendClient,
  saveFile,
  destroyAll,
  fetchObject,
  queryObjects,
  saveAll,
  saveObject,
  createFile,
  PorticoFile,
} from '@portico/sdk/backend'
import { BackendError, BatchError } from '@portico/sdk/errors'
import { databaseKinds, signedIn, testApp } from '../../test/helpers.ts'
import { startFlakyProxy, type FlakyProxy, type ProxyFault } from '@portico/test-kit/flaky-proxy'

// The SDK against the real server (listening on 127.0.0.1) through a proxy that fails the first
// requests before or after they reach the server: a retried write is applied once.

describe.each(databaseKinds())('SDK objects against the server on %s', (kind) => {
  let app: FastifyInstance
  let origin: string
  let proxy: FlakyProxy
  let aliceToken: string
  let bobToken: string
  beforeAll(async () => {
    ;({ app } = await testApp(kind))
    origin = await app.listen({ host: '127.0.0.1', port: 0 })
    ;({ token: aliceToken } = await signedIn(app))
    ;({ token: bobToken } = await signedIn(app))
    proxy = await startFlakyProxy(origin)
  })
  afterAll(async () => {
    await proxy.close()
  })

  const clientFor = (token: string, faults: ProxyFault[] = []): BackendClient => {
    proxy.faults = faults
    proxy.seen = []
    return createBackendClient({
      serverUrl: proxy.url,
      appId: 'test',
      token,
      sleep: async () => {},
    })
  }
  const stored = async (marker: string) => {
    const result = await app.services.database.db.execute(
      sql`select id from objects where data ->> 'marker' = ${marker}`,
    )
    return (result as unknown as { rows: { id: string }[] }).rows.map((r) => r.id)
  }

  it('a create retried through 4 failures (before and after the server) is applied once', async () => {
    const client = clientFor(aliceToken, ['drop-after', '502-after', 'drop-before', '503-before'])
    const saved = await saveObject(client, { className: 'Note', data: { marker: 'retry-1' } })
    expect(proxy.seen).toHaveLength(5)
    expect(await stored('retry-1')).toEqual([saved.objectId])
  })

  it('after 5 failed attempts the caller gets the error, and nothing is applied twice', async () => {
    const client = clientFor(aliceToken, [
      'drop-after',
      '502-after',
      'drop-after',
      '502-after',
      'drop-after',
    ])
    const error = await saveObject(client, {
      className: 'Note',
      data: { marker: 'retry-2' },
    }).catch((e: unknown) => e)
    expect(proxy.seen).toHaveLength(5)
    expect(error).toBeInstanceOf(BackendError)
    expect(error).toMatchObject({ code: 'no_response', attempts: 5 })
    expect(await stored('retry-2')).toHaveLength(1)
    const fiveErrors = clientFor(aliceToken, Array(5).fill('503-before'))
    await expect(fiveErrors.request('GET', '/api/classes/Note')).rejects.toMatchObject({
      name: 'BackendError',
      status: 503,
      attempts: 5,
    })
  })

  it('saveAll of 45 sends batches of 20, 20 and 5 and answers in input order', async () => {
    const client = clientFor(aliceToken, ['drop-after'])
    const objects = Array.from({ length: 45 }, (_, n) => ({
      className: 'Bulk',
      data: { n, at: new Date(Date.UTC(2024, 0, n + 1)) },
    }))
    const saved = await saveAll(client, objects)
    const batches = proxy.seen.filter((s) => s.path === '/api/batch')
    // The first batch was sent twice (its answer was lost), then 20 and 5.
    expect(batches.map((b) => JSON.parse(b.body).requests.length)).toEqual([20, 20, 20, 5])
    expect(saved.map((s) => s.data.n)).toEqual(objects.map((o) => o.data.n))
    expect(saved[44]!.data.at).toEqual(new Date(Date.UTC(2024, 0, 45)))
    const { count } = await queryObjects(client, { className: 'Bulk', limit: 0, count: true })
    expect(count).toBe(45)

    // Bob can neither change nor delete them, in batches; each sub-request is refused alone.
    const bob = clientFor(bobToken)
    const denied = (await saveAll(
      bob,
      saved.slice(0, 3).map((s) => ({ ...s, data: { n: -1 } })),
    ).catch((e: unknown) => e)) as BatchError
    expect(denied).toBeInstanceOf(BatchError)
    expect(denied.results.map((r) => (r as BackendError).status)).toEqual([404, 404, 404])
    await expect(destroyAll(bob, saved.slice(0, 2))).rejects.toBeInstanceOf(BatchError)
    await expect(fetchObject(bob, saved[0]!)).rejects.toMatchObject({ status: 404 })
    expect((await queryObjects(bob, { className: 'Bulk' })).results).toEqual([])

    await destroyAll(client, saved)
    expect((await queryObjects(client, { className: 'Bulk', count: true })).count).toBe(0)
  })

  it('public-read objects are readable by others; queries encode dates', async () => {
    const alice = clientFor(aliceToken)
    const shared = await saveObject(alice, {
      className: 'Post',
      publicRead: true,
      data: { title: 'hello', at: new Date('2024-03-01T00:00:00Z') },
    })
    const bob = clientFor(bobToken)
    expect((await fetchObject(bob, shared)).data.title).toBe('hello')
    const found = await queryObjects(bob, {
      className: 'Post',
      where: { at: { $gte: new Date('2024-02-01T00:00:00Z') } },
    })
    expect(found.results.map((r) => r.objectId)).toEqual([shared.objectId])
  })

  it('saves a file, stores it in an object and reads both back', async () => {
    const client = clientFor(aliceToken, ['drop-after'])
    const file = await saveFile(client, createFile('hello.txt', 'hello file'))
    expect(file.url).toMatch(new RegExp(`^${proxy.url}/api/files/[A-Za-z0-9_-]{16}_hello\\.txt$`))
    const withFile = await saveObject(client, { className: 'Doc', data: { file } })
    const read = await fetchObject(client, withFile)
    expect(read.data.file).toBeInstanceOf(PorticoFile)
    expect((read.data.file as PorticoFile).url).toBe(file.url)
    const res = await fetch(file.url!)
    expect(await res.text()).toBe('hello file')
    expect(
      (await app.services.database.db.execute(
        sql`select count(*)::int as n from files`,
      )) as unknown,
    ).toMatchObject({
      rows: [{ n: 1 }],
    })
  })
})
