import { beforeAll, describe, expect, it } from 'vitest'
import type { FastifyInstance } from 'fastify'
import { databaseKinds, signedIn, testApp } from '../../test/helpers.ts'

describe.each(databaseKinds())('batch on %s', (kind) => {
  let app: FastifyInstance
  let alice: Record<string, string>
  let bob: Record<string, string>
  beforeAll(async () => {
    ;({ app } = await testApp(kind, { batchMaxRequests: 50 }))
    ;({ headers: alice } = await signedIn(app))
    ;({ headers: bob } = await signedIn(app))
  })
  const batch = (headers: Record<string, string>, requests: unknown[], extra = {}) =>
    app.inject({
      method: 'POST',
      url: '/api/batch',
      headers: { ...headers, ...extra },
      payload: { requests },
    })

  it('answers one result per sub-request, in order, each on its own', async () => {
    const res = await batch(alice, [
      { method: 'POST', path: '/api/classes/Item', body: { data: { n: 1 } } },
      { method: 'POST', path: '/api/classes/Item', body: { data: { 'bad-name': 1 } } },
      { method: 'POST', path: '/api/classes/Item', body: { data: { n: 3 }, publicRead: true } },
      { method: 'GET', path: '/api/classes/Item?where=%7B%22n%22%3A3%7D' },
    ])
    expect(res.statusCode).toBe(200)
    const { results } = res.json()
    expect(results.map((r: { status: number }) => r.status)).toEqual([201, 400, 201, 200])
    expect(results[0].body.data).toEqual({ n: 1 })
    expect(results[1].body.error.code).toBe('invalid_field_name')
    expect(results[3].body.results).toHaveLength(1)
  })

  it('authorizes every sub-request: another user cannot read, change or delete private objects', async () => {
    const created = await batch(alice, [
      { method: 'POST', path: '/api/classes/Secret', body: { data: { v: 1 } } },
      { method: 'POST', path: '/api/classes/Secret', body: { data: { v: 2 } } },
      { method: 'POST', path: '/api/classes/Secret', body: { data: { v: 3 } } },
    ])
    const ids = created.json().results.map((r: { body: { objectId: string } }) => r.body.objectId)
    const res = await batch(bob, [
      { method: 'GET', path: `/api/classes/Secret/${ids[0]}` },
      { method: 'PUT', path: `/api/classes/Secret/${ids[1]}`, body: { data: { v: 0 } } },
      { method: 'DELETE', path: `/api/classes/Secret/${ids[2]}` },
      { method: 'GET', path: '/api/classes/Secret' },
      { method: 'DELETE', path: `/api/classes/Secret/${ids[0]}` },
    ])
    const { results } = res.json()
    expect(results.map((r: { status: number }) => r.status)).toEqual([404, 404, 404, 200, 404])
    expect(results[3].body.results).toEqual([])
    // Alice still has all three, unchanged.
    const mine = await app.inject({ url: '/api/classes/Secret?order=v', headers: alice })
    expect(mine.json().results.map((r: { data: { v: number } }) => r.data.v)).toEqual([1, 2, 3])
    // Without credentials nothing is written.
    const anonymous = await batch({}, [
      { method: 'POST', path: '/api/classes/Secret', body: { data: {} } },
    ])
    expect(anonymous.json().results[0].status).toBe(401)
  })

  it('caps the number of sub-requests and allows object routes only', async () => {
    const one = { method: 'GET', path: '/api/classes/Item' }
    expect((await batch(alice, Array(50).fill(one))).statusCode).toBe(200)
    expect((await batch(alice, Array(51).fill(one))).statusCode).toBe(400)
    expect((await batch(alice, [])).statusCode).toBe(400)
    for (const path of [
      '/api/batch',
      '/api/files/x.txt',
      '/api/classes/../batch',
      '/api/classes/Item/../../auth/logout',
      'http://evil.example/api/classes/Item',
    ]) {
      expect((await batch(alice, [{ method: 'POST', path, body: {} }])).statusCode, path).toBe(400)
    }
  })

  it('replays a retried batch with the same Idempotency-Key', async () => {
    const requests = [{ method: 'POST', path: '/api/classes/Once', body: { data: { x: 1 } } }]
    const first = await batch(alice, requests, { 'idempotency-key': 'batch-1' })
    const again = await batch(alice, requests, { 'idempotency-key': 'batch-1' })
    expect(again.json()).toEqual(first.json())
    const all = await app.inject({ url: '/api/classes/Once?count=1', headers: alice })
    expect(all.json().count).toBe(1)
  })
})
