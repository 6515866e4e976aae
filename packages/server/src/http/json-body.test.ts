import { beforeAll, describe, expect, it } from 'vitest'
import type { FastifyInstance } from 'fastify'
import { sql } from 'drizzle-orm'
import { databaseKinds, signedIn, testApp } from '../../test/helpers.ts'
import { MAX_DEPTH } from './json-body.ts'

// What a client sends can never crash a route or fail another client's write.

const deep = (levels: number) => '{"a":'.repeat(levels) + '1' + '}'.repeat(levels)
const deepArray = (levels: number) => '['.repeat(levels) + ']'.repeat(levels)

describe.each(databaseKinds())('JSON bodies on %s', (kind) => {
  let app: FastifyInstance
  let headers: Record<string, string>
  let other: Record<string, string>
  beforeAll(async () => {
    ;({ app } = await testApp(kind))
    ;({ headers } = await signedIn(app))
    ;({ headers: other } = await signedIn(app))
  })

  const post = (url: string, payload: string, who: Record<string, string> = headers) =>
    app.inject({
      method: 'POST',
      url,
      headers: { ...who, 'content-type': 'application/json' },
      payload,
    })

  it('refuses nesting 10,000 levels deep with 400 on every JSON route', async () => {
    const body = deepArray(10_000)
    // Events take bodies of at most 16 KB: 8,000 levels fit.
    const events = await post('/api/events', deepArray(8_000))
    expect(events.statusCode).toBe(400)
    expect(events.json().error.code).toBe('json_too_deep')
    for (const url of ['/api/classes/Note', '/api/batch', '/api/auth/verify', '/api/auth/nonce']) {
      const answer = await post(url, body)
      expect(answer.statusCode, url).toBe(400)
      expect(answer.json().error.code, url).toBe('json_too_deep')
    }
    const put = await app.inject({
      method: 'PUT',
      url: '/api/classes/Note/abc',
      headers: { ...headers, 'content-type': 'application/json' },
      payload: body,
    })
    expect(put.statusCode).toBe(400)
    const rpc = await post('/api/rpc/1', body)
    expect(rpc.statusCode).toBe(400)
    expect(rpc.json().error.code).toBe(-32700)
  })

  it('refuses one level over the limit and parses the limit itself', async () => {
    const over = await post('/api/batch', deepArray(MAX_DEPTH + 1))
    expect(over.json().error.code).toBe('json_too_deep')
    // At the limit the body is parsed and reaches validation (which then refuses its shape).
    const at = await post('/api/batch', deepArray(MAX_DEPTH))
    expect(at.statusCode).toBe(400)
    expect(at.json().error.code).toBe('invalid_request')
    // Documents themselves may nest 32 levels.
    expect((await post('/api/classes/Note', `{"data":${deep(30)}}`)).statusCode).toBe(201)
  })

  it('refuses numbers JSON cannot carry instead of storing null', async () => {
    for (const number of ['1e400', '-1e400']) {
      const answer = await post('/api/classes/Note', `{"data":{"n":${number}}}`)
      expect(answer.statusCode, number).toBe(400)
      expect(answer.json().error.code).toBe('invalid_value')
    }
    const rows = await app.services.database.db.execute(
      sql`select count(*)::int as n from objects where data ? 'n' and data->'n' = 'null'::jsonb`,
    )
    expect((rows as unknown as { rows: { n: number }[] }).rows[0]!.n).toBe(0)
  })

  it('refuses NUL and lone surrogates in values and keys', async () => {
    for (const payload of [
      '{"data":{"t":"a\\u0000b"}}',
      '{"data":{"a\\u0000":1}}',
      '{"data":{"t":"\\ud800"}}',
      '{"data":{"t":"\\udc00x"}}',
    ]) {
      const answer = await post('/api/classes/Note', payload)
      expect(answer.statusCode, payload).toBe(400)
      expect(answer.json().error.code).toBe('invalid_value')
    }
    // A proper surrogate pair (an emoji) is fine.
    expect((await post('/api/classes/Note', '{"data":{"t":"\\ud83d\\ude00"}}')).statusCode).toBe(
      201,
    )
  })

  it("acknowledges and stores every good write during another client's flood of poison", async () => {
    const marker = `flood-${kind}-${Date.now()}`
    const good = Array.from({ length: 60 }, (_, i) =>
      post('/api/classes/Note', JSON.stringify({ data: { marker, i } })),
    )
    const poison = Array.from({ length: 60 }, () =>
      post('/api/classes/Note', '{"data":{"t":"\\u0000"}}', other),
    )
    const events = Array.from({ length: 60 }, (_, i) =>
      post('/api/events', JSON.stringify({ subdomain: 'site', event: 'good', options: { i } })),
    )
    const poisonEvents = Array.from({ length: 60 }, () =>
      post('/api/events', '{"subdomain":"site","event":"bad","options":{"t":"\\u0000"}}', {}),
    )
    const [goodAnswers, poisonAnswers, eventAnswers, poisonEventAnswers] = await Promise.all([
      Promise.all(good),
      Promise.all(poison),
      Promise.all(events),
      Promise.all(poisonEvents),
    ])
    expect(goodAnswers.map((a) => a.statusCode)).toEqual(good.map(() => 201))
    expect(eventAnswers.map((a) => a.statusCode)).toEqual(events.map(() => 202))
    expect(new Set(poisonAnswers.map((a) => a.statusCode))).toEqual(new Set([400]))
    expect(new Set(poisonEventAnswers.map((a) => a.statusCode))).toEqual(new Set([400]))
    const rows = await app.services.database.db.execute(
      sql`select count(*)::int as n from objects where data ->> 'marker' = ${marker}`,
    )
    expect((rows as unknown as { rows: { n: number }[] }).rows[0]!.n).toBe(60)
  })
})
