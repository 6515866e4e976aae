import { beforeAll, describe, expect, it } from 'vitest'
import type { FastifyInstance } from 'fastify'
import { sql } from 'drizzle-orm'
import { databaseKinds, signedIn, testApp } from '../../test/helpers.ts'

describe.each(databaseKinds())('idempotency on %s', (kind) => {
  let app: FastifyInstance
  let headers: Record<string, string>
  let other: Record<string, string>
  beforeAll(async () => {
    ;({ app } = await testApp(kind))
    ;({ headers } = await signedIn(app))
    ;({ headers: other } = await signedIn(app))
  })

  const countNotes = async (marker: string) => {
    const rows = await app.services.database.db.execute(
      sql`select count(*)::int as n from objects where data ->> 'marker' = ${marker}`,
    )
    return (rows as unknown as { rows: { n: number }[] }).rows[0]!.n
  }
  const create = (key: string, marker: string, who = headers) =>
    app.inject({
      method: 'POST',
      url: '/api/classes/Note',
      headers: { ...who, 'idempotency-key': key },
      payload: { data: { marker } },
    })

  it('applies a write once and replays the first answer for the same key and body', async () => {
    const first = await create('key-1', 'm1')
    const second = await create('key-1', 'm1')
    expect(first.statusCode).toBe(201)
    expect(second.statusCode).toBe(201)
    expect(second.json()).toEqual(first.json())
    expect(second.headers['idempotent-replayed']).toBe('true')
    expect(await countNotes('m1')).toBe(1)
  })

  it('answers 422 for the same key with another body', async () => {
    await create('key-2', 'm2')
    const res = await create('key-2', 'something else')
    expect(res.statusCode).toBe(422)
    expect(res.json().error.code).toBe('idempotency_key_reused')
    expect(await countNotes('something else')).toBe(0)
  })

  it('scopes keys per user', async () => {
    await create('shared-key', 'm3')
    const res = await create('shared-key', 'm3', other)
    expect(res.headers['idempotent-replayed']).toBeUndefined()
    expect(await countNotes('m3')).toBe(2)
  })

  it('applies simultaneous duplicates once', async () => {
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => create('key-concurrent', 'm4')),
    )
    expect(await countNotes('m4')).toBe(1)
    const ids = new Set(answers.map((a) => a.json().objectId))
    expect(answers.every((a) => a.statusCode === 201)).toBe(true)
    expect(ids.size).toBe(1)
  })

  it('replays a delete instead of answering 404 the second time', async () => {
    const created = (await create('key-5', 'm5')).json()
    const del = () =>
      app.inject({
        method: 'DELETE',
        url: `/api/classes/Note/${created.objectId}`,
        headers: { ...headers, 'idempotency-key': 'key-5-delete' },
      })
    expect((await del()).statusCode).toBe(204)
    expect((await del()).statusCode).toBe(204)
  })

  it('forgets records after 24 hours', async () => {
    await create('key-old', 'm6')
    await app.services.database.db.execute(
      sql`update idempotency set created_at = now() - interval '25 hours' where key = 'key-old'`,
    )
    const res = await create('key-old', 'm6')
    expect(res.headers['idempotent-replayed']).toBeUndefined()
    expect(await countNotes('m6')).toBe(2)
  })

  it('refuses malformed keys and ignores requests without one', async () => {
    expect((await create('x'.repeat(201), 'm7')).statusCode).toBe(400)
    expect((await create('with space', 'm7')).statusCode).toBe(400)
    const plain = () =>
      app.inject({
        method: 'POST',
        url: '/api/classes/Note',
        headers,
        payload: { data: { marker: 'm8' } },
      })
    await plain()
    await plain()
    expect(await countNotes('m8')).toBe(2)
  })
})
