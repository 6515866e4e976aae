import { createRequire } from 'node:module'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { loadConfig } from '../config/server.ts'
import { databaseKinds, signedIn, wellInsideAMinute } from '../../test/helpers.ts'
import { listeningApp, type ListeningApp, type ParseSdk } from '../../test/compat.ts'

// How fast a client that is not signed in may write objects (SIGNED_OUT_WRITE_RATE_LIMIT): each
// create, update and delete counts, on `/api`, its batch, the mount and the mount's batch; one
// beyond the limit is refused before it changes anything; each address has its own budget;
// signed-in and master-key writes are not counted.

const require = createRequire(import.meta.url)
const Parse = require('parse/node') as ParseSdk

const MASTER = 'master-key-for-the-write-limit-tests'
const LIMIT = 3

describe.each(databaseKinds())('the signed-out write limit on %s', (kind) => {
  let server: ListeningApp
  const master = { useMasterKey: true }
  /** Objects of `className` as stored, counted with the master key. */
  const rows = (className: string) => new Parse.Query(className).count(master) as Promise<number>
  /** A class every client may create in, read, change and delete. */
  async function openClass(className: string) {
    const schema = new Parse.Schema(className)
    schema.addNumber('n')
    const open = { '*': true }
    schema.setCLP({ find: open, get: open, count: open, create: open, update: open, delete: open })
    await schema.save()
  }
  /** `POST /api/classes/:className` from `client`, signed out unless `headers` sign in. */
  const create = (className: string, client: string, headers: Record<string, string> = {}) =>
    server.app.inject({
      method: 'POST',
      url: `/api/classes/${className}`,
      payload: { data: { n: 1 }, publicRead: true },
      headers,
      remoteAddress: client,
    })

  beforeAll(async () => {
    server = await listeningApp(kind, {
      app: { ...loadConfig({}).app, signedOutWriteRateLimit: LIMIT },
      compat: {
        mount: '/server',
        legacySignIn: true,
        masterKey: MASTER,
        masterKeyIps: ['127.0.0.1/8', '::1/128'],
      },
    })
    Parse.initialize('portico', undefined, MASTER)
    Parse.serverURL = server.serverUrl
    for (const className of ['Guestbook', 'Wall', 'Board', 'Pinboard']) await openClass(className)
  })
  afterAll(async () => {
    await server.close()
  })
  beforeEach(() => wellInsideAMinute(10_000), 15_000)

  it('refuses /api creates beyond the limit (429, retry-after) and stores none of them; each address has its own', async () => {
    const statuses = []
    for (let i = 0; i < LIMIT + 2; i++)
      statuses.push((await create('Guestbook', '203.0.113.1')).statusCode)
    expect(statuses).toEqual([201, 201, 201, 429, 429])
    const refused = await create('Guestbook', '203.0.113.1')
    expect(refused.statusCode).toBe(429)
    expect(refused.json().error.code).toBe('rate_limited')
    expect(refused.json().error.message).toMatch(/sign in, or try again in a minute/)
    const retryAfter = Number(refused.headers['retry-after'])
    expect(retryAfter).toBeGreaterThanOrEqual(1)
    expect(retryAfter).toBeLessThanOrEqual(60)
    expect(await rows('Guestbook')).toBe(LIMIT)
    // Another address has a budget of its own.
    expect((await create('Guestbook', '203.0.113.2')).statusCode).toBe(201)
    expect(await rows('Guestbook')).toBe(LIMIT + 1)
  })

  it('does not count signed-in writes', async () => {
    const { headers } = await signedIn(server.app)
    for (let i = 0; i < LIMIT + 2; i++)
      expect((await create('Wall', '203.0.113.3', headers)).statusCode).toBe(201)
    // Nor did they use up the address's signed-out budget.
    for (let i = 0; i < LIMIT; i++)
      expect((await create('Wall', '203.0.113.3')).statusCode).toBe(201)
    expect((await create('Wall', '203.0.113.3')).statusCode).toBe(429)
    expect(await rows('Wall')).toBe(2 * LIMIT + 2)
  })

  it('counts updates and deletes, and each write of a batch; the writes beyond the limit change nothing', async () => {
    const client = '203.0.113.4'
    const made = await server.app.inject({
      method: 'POST',
      url: '/api/classes/Board',
      payload: { data: { n: 1 }, acl: { '*': { read: true, write: true } } },
      remoteAddress: client,
    })
    expect(made.statusCode).toBe(201)
    const id = made.json().objectId as string
    const url = `/api/classes/Board/${id}`
    const key = 'batch-over-the-limit'
    const batch = () =>
      server.app.inject({
        method: 'POST',
        url: '/api/batch',
        headers: { 'idempotency-key': key },
        payload: {
          requests: [
            { method: 'PUT', path: url, body: { data: { n: 2 } } },
            { method: 'POST', path: '/api/classes/Board', body: { data: { n: 1 } } },
            { method: 'POST', path: '/api/classes/Board', body: { data: { n: 1 } } },
            { method: 'DELETE', path: url },
          ],
        },
        remoteAddress: client,
      })
    const first = await batch()
    expect(first.statusCode).toBe(200)
    const results = first.json().results as { status: number; body: { error?: { code: string } } }[]
    // One write of three was the create above: two more pass, the rest are refused.
    expect(results.map((r) => r.status)).toEqual([200, 201, 429, 429])
    expect(results[3]!.body.error?.code).toBe('rate_limited')
    expect(await rows('Board')).toBe(2)
    expect((await new Parse.Query('Board').get(id, master)).get('n')).toBe(2)
    // Sent again with its key, the batch is answered as before and applies nothing twice.
    const again = await batch()
    expect(again.json()).toEqual(first.json())
    expect(await rows('Board')).toBe(2)
    // A delete alone is refused too, and the object stays.
    const removed = await server.app.inject({ method: 'DELETE', url, remoteAddress: client })
    expect(removed.statusCode).toBe(429)
    expect((await new Parse.Query('Board').get(id, master)).get('n')).toBe(2)
  })

  it('answers the parse client beyond the limit with code 100 (status 429) on the mount and its batch; the master key is not counted', async () => {
    // The client connects from this machine (127.0.0.1); without the master key it is signed out.
    const saved = []
    for (let i = 0; i < LIMIT; i++) {
      const entry = new Parse.Object('Pinboard', { n: i })
      entry.setACL(new Parse.ACL({ '*': { read: true, write: true } }))
      await entry.save()
      saved.push(entry)
    }
    const over = new Parse.Object('Pinboard', { n: 9 })
    await expect(over.save()).rejects.toMatchObject({ code: 100 })
    saved[0]!.set('n', 7)
    await expect(saved[0]!.save()).rejects.toMatchObject({ code: 100 })
    await expect(saved[1]!.destroy()).rejects.toMatchObject({ code: 100 })
    expect(await rows('Pinboard')).toBe(LIMIT)
    expect((await new Parse.Query('Pinboard').get(saved[0]!.id, master)).get('n')).toBe(0)
    // The mount's batch answers each refused write on its own.
    const answer = await fetch(`${server.serverUrl}/batch`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-parse-application-id': 'portico' },
      body: JSON.stringify({
        requests: [
          { method: 'POST', path: '/server/classes/Pinboard', body: { n: 1 } },
          { method: 'DELETE', path: `/server/classes/Pinboard/${saved[2]!.id}` },
        ],
      }),
    })
    const results = (await answer.json()) as { error?: { code: number; error: string } }[]
    expect(results.map((r) => r.error?.code)).toEqual([100, 100])
    expect(results[0]!.error!.error).toMatch(/sign in, or try again in a minute/)
    expect(await rows('Pinboard')).toBe(LIMIT)
    // A REST call beyond the limit: HTTP 429 with Parse's body and a retry-after.
    const rest = await fetch(`${server.serverUrl}/classes/Pinboard`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-parse-application-id': 'portico' },
      body: JSON.stringify({ n: 1 }),
    })
    expect(rest.status).toBe(429)
    expect(await rest.json()).toMatchObject({ code: 100 })
    expect(Number(rest.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
    // The master key writes as it likes.
    await new Parse.Object('Pinboard', { n: 1 }).save(null, master)
    await saved[1]!.destroy(master)
    expect(await rows('Pinboard')).toBe(LIMIT)
  })
})
