import { describe, expect, it } from 'vitest'
import { databaseKinds, signedIn, testApp } from '../../test/helpers.ts'

describe.each(databaseKinds())('objects on %s', (kind) => {
  async function setup() {
    const { app } = await testApp(kind)
    const alice = await signedIn(app)
    const bob = await signedIn(app)
    const create = async (
      who: { headers: Record<string, string> },
      data: Record<string, unknown>,
      publicRead?: boolean,
    ) => {
      const res = await app.inject({
        method: 'POST',
        url: '/api/classes/Note',
        headers: who.headers,
        payload: { data, ...(publicRead === undefined ? {} : { publicRead }) },
      })
      expect(res.statusCode).toBe(201)
      return res.json() as { objectId: string; owner: string; publicRead: boolean; data: object }
    }
    return { app, alice, bob, create }
  }

  it('creates, reads, changes and deletes an own object', async () => {
    const { app, alice, create } = await setup()
    const note = await create(alice, {
      title: 'hi',
      when: { __type: 'Date', iso: '2024-05-01T10:00:00Z' },
      nested: { deep: [1, 2, { x: null }] },
    })
    expect(note).toMatchObject({
      owner: alice.user.id,
      publicRead: false,
      data: { title: 'hi', when: { __type: 'Date', iso: '2024-05-01T10:00:00.000Z' } },
    })
    const url = `/api/classes/Note/${note.objectId}`
    expect((await app.inject({ url, headers: alice.headers })).json()).toEqual(note)
    const put = await app.inject({
      method: 'PUT',
      url,
      headers: alice.headers,
      payload: { data: { title: 'changed', extra: 1 } },
    })
    expect(put.statusCode).toBe(200)
    expect(put.json().data).toMatchObject({
      title: 'changed',
      extra: 1,
      nested: { deep: [1, 2, { x: null }] },
    })
    const del = await app.inject({ method: 'DELETE', url, headers: alice.headers })
    expect(del.statusCode).toBe(204)
    expect((await app.inject({ url, headers: alice.headers })).statusCode).toBe(404)
  })

  it('requires sign-in to write', async () => {
    const { app } = await setup()
    const res = await app.inject({
      method: 'POST',
      url: '/api/classes/Note',
      payload: { data: {} },
    })
    expect(res.statusCode).toBe(401)
  })

  it('keeps a private object from everyone but its owner', async () => {
    const { app, alice, bob, create } = await setup()
    const note = await create(alice, { secret: 42 })
    const url = `/api/classes/Note/${note.objectId}`
    expect((await app.inject({ url, headers: bob.headers })).statusCode).toBe(404)
    expect((await app.inject({ url })).statusCode).toBe(404)
    const put = await app.inject({
      method: 'PUT',
      url,
      headers: bob.headers,
      payload: { data: { secret: 0 }, publicRead: true },
    })
    expect(put.statusCode).toBe(404)
    expect((await app.inject({ method: 'DELETE', url, headers: bob.headers })).statusCode).toBe(404)
    const query = await app.inject({ url: '/api/classes/Note?count=1', headers: bob.headers })
    expect(query.json()).toEqual({ results: [], count: 0 })
    // Unchanged for the owner.
    const mine = await app.inject({ url, headers: alice.headers })
    expect(mine.json()).toMatchObject({ publicRead: false, data: { secret: 42 } })
  })

  it('answers fetches that arrive together each to its own reader', async () => {
    const { app, alice, bob, create } = await setup()
    const secret = await create(alice, { secret: 7 })
    const shared = await app.inject({
      method: 'POST',
      url: '/api/classes/Note',
      headers: alice.headers,
      payload: { data: { text: 'for all' }, publicRead: true },
    })
    const open = shared.json() as { objectId: string }
    // Many at once, so they share statements: the owner, another user and a visitor, in turn.
    const readers = [alice.headers, bob.headers, {}]
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        app.inject({
          url: `/api/classes/Note/${i % 2 ? open.objectId : secret.objectId}`,
          headers: readers[i % 3],
        }),
      ),
    )
    answers.forEach((answer, i) => {
      const mayRead = i % 2 === 1 || i % 3 === 0
      expect(answer.statusCode).toBe(mayRead ? 200 : 404)
      if (mayRead) expect(answer.json().objectId).toBe(i % 2 ? open.objectId : secret.objectId)
    })
  })

  it('answers a page asked again from its compiled statement, per viewer and with fresh rows', async () => {
    const { app, alice, bob, create } = await setup()
    await create(alice, { kind: 'a', n: 1 })
    await create(bob, { kind: 'a', n: 2 }, true)
    const where = encodeURIComponent(JSON.stringify({ kind: 'a' }))
    const page = async (who?: { headers: Record<string, string> }, text = where) => {
      const res = await app.inject({
        url: `/api/classes/Note?where=${text}&order=n`,
        ...(who ? { headers: who.headers } : {}),
      })
      expect(res.statusCode).toBe(200)
      return (res.json() as { results: { data: { n: number } }[] }).results.map((o) => o.data.n)
    }
    // The same text for three viewers: each sees what it may, whoever asked first.
    expect(await page(alice)).toEqual([1, 2])
    expect(await page(bob)).toEqual([2])
    expect(await page()).toEqual([2])
    expect(await page(alice)).toEqual([1, 2])
    // The statement is reused, not its rows: a new object shows at once.
    await create(alice, { kind: 'a', n: 3 })
    expect(await page(alice)).toEqual([1, 2, 3])
    // Another text is another statement.
    expect(await page(alice, encodeURIComponent(JSON.stringify({ n: { $gt: 1 } })))).toEqual([2, 3])
  })

  it('lets the owner make an object public-read; others still cannot change it', async () => {
    const { app, alice, bob, create } = await setup()
    const note = await create(alice, { text: 'hello' })
    const url = `/api/classes/Note/${note.objectId}`
    const share = await app.inject({
      method: 'PUT',
      url,
      headers: alice.headers,
      payload: { publicRead: true },
    })
    expect(share.json().publicRead).toBe(true)
    expect((await app.inject({ url, headers: bob.headers })).json().data).toEqual({ text: 'hello' })
    expect((await app.inject({ url })).statusCode).toBe(200)
    const query = await app.inject({ url: '/api/classes/Note' })
    expect(query.json().results).toHaveLength(1)
    const put = await app.inject({
      method: 'PUT',
      url,
      headers: bob.headers,
      payload: { publicRead: false },
    })
    expect(put.statusCode).toBe(403)
    expect(put.json().error.code).toBe('forbidden')
    expect((await app.inject({ method: 'DELETE', url, headers: bob.headers })).statusCode).toBe(403)
    expect((await app.inject({ url })).json().publicRead).toBe(true)
  })

  it('validates class and field names', async () => {
    const { app, alice } = await setup()
    for (const className of ['1abc', 'a-b', 'x'.repeat(65), '_User', 'Note;drop']) {
      const res = await app.inject({
        method: 'POST',
        url: `/api/classes/${encodeURIComponent(className)}`,
        headers: alice.headers,
        payload: { data: {} },
      })
      expect(res.statusCode, className).toBe(400)
    }
    for (const field of ['objectId', 'a.b', "x'); drop table objects; --", '$where', '']) {
      const res = await app.inject({
        method: 'POST',
        url: '/api/classes/Note',
        headers: alice.headers,
        payload: { data: { [field]: 1 } },
      })
      expect(res.statusCode, field).toBe(400)
      expect(res.json().error.code).toBe('invalid_field_name')
    }
    const badDate = await app.inject({
      method: 'POST',
      url: '/api/classes/Note',
      headers: alice.headers,
      payload: { data: { d: { __type: 'Date', iso: 'yesterday-ish' } } },
    })
    expect(badDate.json().error.code).toBe('invalid_value')
  })
})
