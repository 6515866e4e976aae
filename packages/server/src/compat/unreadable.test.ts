import { createRequire } from 'node:module'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { databaseKinds } from '../../test/helpers.ts'
import {
  liveSocket,
  parseLogIn,
  parseSignOff,
  parseTarget,
  type ListeningApp,
  type ParseSdk,
} from '../../test/compat.ts'

// What a caller may not read stays unread, whatever they ask. A field a class hides from them
// (`protectedFields`) is no query oracle: a `where` naming it (at any depth, in a sub-query, a
// count, a batch, a live subscription), an order on it or a `keys` asking for it is refused with
// Parse's 119, on the mount (the real `parse` client and raw REST), on `/api` and on both live
// protocols; the master key and a user it is not hidden from still query and sort on it. And a
// live `leave` carries what the subscriber may read of the object: as it is now when they still
// may (it only left their `where`), else as it was before the change, never with what the
// change that hid it wrote.

const require = createRequire(import.meta.url)
const Parse = require('parse/node') as ParseSdk

const MASTER = 'master-key-for-the-protected-query-tests'
const REFUSAL = 'This user is not allowed to query ssn on class Patient'
type Account = ReturnType<typeof privateKeyToAccount>
type Found = ParseSdk

describe.each(databaseKinds())('what a caller may not read, on %s', (kind) => {
  let server: ListeningApp
  const [carol, bob] = Array.from({ length: 2 }, () =>
    privateKeyToAccount(generatePrivateKey()),
  ) as [Account, Account]
  const tokens = new Map<Account, string>()
  const ids = new Map<Account, string>()
  const master = { useMasterKey: true }
  let p1: Found

  async function as(account: Account) {
    const user = await parseLogIn(Parse, account)
    tokens.set(account, user.getSessionToken())
    ids.set(account, user.id)
    return { sessionToken: user.getSessionToken() }
  }
  const q = () => new Parse.Query('Patient')
  const rest = (path: string, params: Record<string, unknown>, token?: string) =>
    server.app.inject({
      method: 'POST',
      url: `/server/${path}`,
      headers: { 'content-type': 'text/plain' },
      payload: JSON.stringify({
        _ApplicationId: 'portico',
        _method: 'GET',
        ...params,
        ...(token ? { _SessionToken: token } : {}),
      }),
    })

  beforeAll(async () => {
    server = await parseTarget(kind, Parse, MASTER)
    Parse.User.enableUnsafeCurrentUser()
    await as(bob)
    await as(carol)
    const acl = new Parse.ACL()
    acl.setPublicReadAccess(true)
    const Patient = Parse.Object.extend('Patient')
    p1 = await new Patient({ name: 'p1', ssn: '123-45' }).setACL(acl).save(null, master)
    await new Patient({ name: 'p2', ssn: '987-65' }).setACL(acl).save(null, master)
    await new (Parse.Object.extend('Visit'))({ patient: p1, code: '123-45' })
      .setACL(acl)
      .save(null, master)
    const schema = new Parse.Schema('Patient')
    schema.setCLP({
      find: { '*': true },
      get: { '*': true },
      count: { '*': true },
      create: {},
      update: {},
      delete: {},
      addField: {},
      // Hidden from everyone but bob.
      protectedFields: { '*': ['ssn'], [ids.get(bob)!]: [] },
    })
    await schema.update()
  })
  afterAll(async () => {
    await parseSignOff(Parse)
    await server.close()
  })

  it('refuses a where, order, keys or sub-query naming the field, from the parse client, with 119', async () => {
    const asCarol = await as(carol)
    const refused = { code: 119, message: REFUSAL }
    const queries = [
      q().equalTo('ssn', '123-45'),
      q().matches('ssn', '^1'),
      q().containedIn('ssn', ['123-45', '000']),
      q().exists('ssn'),
      Parse.Query.or(q().equalTo('name', 'nobody'), q().startsWith('ssn', '12')),
      Parse.Query.and(q().equalTo('name', 'p1'), q().greaterThan('ssn', '5')),
      q().ascending('ssn'),
      q().descending('name,ssn'),
      q().select('name', 'ssn'),
      new Parse.Query('Visit').matchesQuery('patient', q().equalTo('ssn', '123-45')),
      new Parse.Query('Visit').doesNotMatchQuery('patient', q().matches('ssn', '^9')),
      new Parse.Query('Visit').matchesKeyInQuery('code', 'ssn', q()),
      new Parse.Query('Visit').doesNotMatchKeyInQuery('code', 'ssn', q()),
    ]
    for (const query of queries) {
      await expect(query.find(asCarol)).rejects.toMatchObject(refused)
      await expect(query.count(asCarol)).rejects.toMatchObject(refused)
    }
    await expect(q().select('ssn').get(p1.id, asCarol)).rejects.toMatchObject(refused)
    // Signed out, the same.
    await Parse.User.logOut()
    await expect(q().equalTo('ssn', '123-45').find()).rejects.toMatchObject(refused)
    await expect(q().ascending('ssn').count()).rejects.toMatchObject(refused)
    // What carol may ask is answered, without the field.
    const found = (await q()
      .ascending('name')
      .find(await as(carol))) as Found[]
    expect(found.map((o) => [o.get('name'), o.get('ssn')])).toEqual([
      ['p1', undefined],
      ['p2', undefined],
    ])
  })

  it('refuses it on raw REST, in a batch, and on /api', async () => {
    const token = tokens.get(carol)!
    const where = { ssn: { $regex: '^1' } }
    const asked: [string, Record<string, unknown>][] = [
      ['classes/Patient', { where }],
      ['classes/Patient', { where, count: 1, limit: 0 }],
      ['classes/Patient', { order: '-ssn' }],
      ['classes/Patient', { keys: 'name,ssn' }],
      [
        'classes/Visit',
        {
          where: {
            patient: { $inQuery: { className: 'Patient', where: { $or: [{ ssn: '123-45' }] } } },
          },
        },
      ],
      [
        'classes/Visit',
        { where: { code: { $select: { query: { className: 'Patient' }, key: 'ssn' } } } },
      ],
    ]
    for (const [path, params] of asked) {
      for (const caller of [token, undefined]) {
        const answer = await rest(path, params, caller)
        expect({ params, status: answer.statusCode, body: answer.json() }).toEqual({
          params,
          status: 400,
          body: { code: 119, error: REFUSAL },
        })
      }
    }
    // Parse's REST GET, its query in the URL.
    const get = await server.app.inject({
      url: `/server/classes/Patient?where=${encodeURIComponent(JSON.stringify(where))}`,
      headers: { 'x-parse-application-id': 'portico', 'x-parse-session-token': token },
    })
    expect(get.json()).toEqual({ code: 119, error: REFUSAL })
    const batch = await server.app.inject({
      method: 'POST',
      url: '/server/batch',
      headers: { 'content-type': 'text/plain' },
      payload: JSON.stringify({
        _ApplicationId: 'portico',
        _SessionToken: token,
        requests: [
          { method: 'GET', path: '/server/classes/Patient', body: { where: { ssn: '123-45' } } },
          { method: 'GET', path: '/server/classes/Patient', body: { where: { name: 'p1' } } },
        ],
      }),
    })
    const parts = batch.json() as { error?: unknown; success?: { results: unknown[] } }[]
    expect(parts[0]).toEqual({ error: { code: 119, error: REFUSAL } })
    expect(parts[1]!.success!.results).toHaveLength(1)

    const headers = { authorization: `Bearer ${token.slice('r:'.length)}` }
    for (const query of [
      `where=${encodeURIComponent(JSON.stringify({ ssn: '123-45' }))}`,
      `where=${encodeURIComponent(JSON.stringify({ $and: [{ ssn: { $in: ['123-45'] } }] }))}&count=true`,
      'order=ssn',
    ]) {
      const answer = await server.app.inject({ url: `/api/classes/Patient?${query}`, headers })
      expect(answer.statusCode, query).toBe(403)
      expect(answer.json().error).toEqual({ code: 'class_permission_denied', message: REFUSAL })
    }
    const apiBatch = await server.app.inject({
      method: 'POST',
      url: '/api/batch',
      headers,
      payload: {
        requests: [
          { method: 'GET', path: `/api/classes/Patient?order=-ssn` },
          { method: 'GET', path: `/api/classes/Patient?order=name` },
        ],
      },
    })
    const results = apiBatch.json().results as { status: number }[]
    expect(results.map((r) => r.status)).toEqual([403, 200])
  })

  it('lets the master key and a user the field is not hidden from query and sort on it', async () => {
    const asBob = await as(bob)
    for (const options of [master, asBob]) {
      const found = (await q().equalTo('ssn', '123-45').find(options)) as Found[]
      expect(found.map((o) => [o.get('name'), o.get('ssn')])).toEqual([['p1', '123-45']])
      const sorted = (await q().descending('ssn').select('name', 'ssn').find(options)) as Found[]
      expect(sorted.map((o) => o.get('ssn'))).toEqual(['987-65', '123-45'])
      expect(await q().matches('ssn', '^9').count(options)).toBe(1)
      const visits = await new Parse.Query('Visit')
        .matchesKeyInQuery('code', 'ssn', q().equalTo('name', 'p1'))
        .find(options)
      expect(visits).toHaveLength(1)
    }
    const answer = await server.app.inject({
      url: `/api/classes/Patient?order=-ssn&where=${encodeURIComponent(JSON.stringify({ ssn: { $exists: true } }))}`,
      headers: { authorization: `Bearer ${tokens.get(bob)!.slice('r:'.length)}` },
    })
    expect(answer.statusCode).toBe(200)
    expect(answer.json().results.map((r: { data: { ssn: string } }) => r.data.ssn)).toEqual([
      '987-65',
      '123-45',
    ])
  })

  it('refuses a live subscription naming it, on the mount and on /api/live, and serves one that may', async () => {
    // The parse client: the subscription is refused, and told why.
    const client = new Parse.LiveQueryClient({
      applicationId: 'portico',
      serverURL: server.serverUrl.replace(/^http/, 'ws'),
      sessionToken: tokens.get(carol),
    })
    client.open()
    const refused = client.subscribe(q().equalTo('ssn', '123-45'))
    const told = new Promise<unknown>((resolve) => refused.on('error', resolve))
    await expect(refused.subscribePromise).rejects.toMatchObject({ code: 119, message: REFUSAL })
    expect(await told).toBe(REFUSAL)
    await client.close()

    // Parse's protocol, raw: where, keys and watch.
    const mount = await liveSocket(`${server.serverUrl.replace(/^http/, 'ws')}`)
    mount.send({ op: 'connect', applicationId: 'portico', sessionToken: tokens.get(carol) })
    const subscriptions = [
      { className: 'Patient', where: { $or: [{ ssn: { $regex: '^1' } }] } },
      { className: 'Patient', where: {}, keys: ['ssn'] },
      { className: 'Patient', where: {}, watch: ['ssn'] },
    ]
    subscriptions.forEach((query, i) => mount.send({ op: 'subscribe', requestId: i + 1, query }))
    await expect
      .poll(() => mount.messages.filter((m) => m.op === 'error'))
      .toEqual(
        [1, 2, 3].map((requestId) =>
          expect.objectContaining({ requestId, code: 119, error: REFUSAL }),
        ),
      )
    mount.close()

    // Portico's protocol.
    const native = await nativeLive(carol)
    native.send({ op: 'subscribe', requestId: 1, className: 'Patient', where: { ssn: '123-45' } })
    native.send({ op: 'subscribe', requestId: 2, className: 'Patient' })
    await expect
      .poll(() => native.messages.filter((m) => m.op !== 'connected'))
      .toEqual([
        { op: 'error', requestId: 1, code: 'class_permission_denied', message: REFUSAL },
        { op: 'subscribed', requestId: 2 },
      ])

    // bob may: his subscription on the field hears the change, with the field.
    const asBob = await as(bob)
    const allowed = await q().equalTo('ssn', '123-45').subscribe(asBob.sessionToken)
    const heard = new Promise<Found>((resolve) => allowed.on('update', resolve))
    p1.set('name', 'p1 again')
    await p1.save(null, master)
    const object = await heard
    expect([object.get('name'), object.get('ssn')]).toEqual(['p1 again', '123-45'])
    // carol's allowed subscription hears it too, without the field.
    await expect
      .poll(() => native.messages.find((m) => m.op === 'update'))
      .toMatchObject({ requestId: 2 })
    expect(
      (native.messages.find((m) => m.op === 'update')!.object as { data: object }).data,
    ).toEqual({ name: 'p1 again' })
    native.close()
    await allowed.unsubscribe()
  })

  /** `/api/live`, signed in as `account`. */
  async function nativeLive(account: Account) {
    const socket = await liveSocket(`${server.origin.replace(/^http/, 'ws')}/api/live`)
    socket.send({ op: 'connect', token: tokens.get(account)!.slice('r:'.length) })
    return socket
  }
  /** An object of bob's that everyone reads. */
  async function bobsPublic(className: string, data: Record<string, unknown>) {
    const asBob = await as(bob)
    const acl = new Parse.ACL(Parse.User.current())
    acl.setPublicReadAccess(true)
    const object = await new (Parse.Object.extend(className))(data).setACL(acl).save(null, asBob)
    return { object, asBob }
  }

  it('sends a leave with the object as it was when the change hides it from the subscriber', async () => {
    const { object: contact, asBob } = await bobsPublic('Contact', { name: 'Ada' })
    const viaParse = await new Parse.Query('Contact').subscribe(tokens.get(carol))
    const left = new Promise<Found>((resolve) => viaParse.on('leave', resolve))
    const native = await nativeLive(carol)
    native.send({ op: 'subscribe', requestId: 1, className: 'Contact' })
    await expect.poll(() => native.messages.some((m) => m.op === 'subscribed')).toBe(true)

    // One save makes it private and writes a phone number.
    contact.setACL(new Parse.ACL(Parse.User.current()))
    contact.set('phone', '+44 20 7946 0000')
    await contact.save(null, asBob)

    const object = await left
    expect([object.id, object.get('name'), object.get('phone')]).toEqual([
      contact.id,
      'Ada',
      undefined,
    ])
    await expect.poll(() => native.messages.find((m) => m.op === 'leave')).toBeDefined()
    const sent = native.messages.find((m) => m.op === 'leave')!.object as {
      objectId: string
      data: Record<string, unknown>
    }
    expect([sent.objectId, sent.data]).toEqual([contact.id, { name: 'Ada' }])
    // And the subscriber may not read it now.
    await expect(
      new Parse.Query('Contact').get(contact.id, { sessionToken: tokens.get(carol) }),
    ).rejects.toMatchObject({ code: 101 })
    native.close()
    await viaParse.unsubscribe()
  })

  it('sends a leave with the object as it is now when it only left the where', async () => {
    const { object: ticket, asBob } = await bobsPublic('Ticket', { status: 'open' })
    const viaParse = await new Parse.Query('Ticket')
      .equalTo('status', 'open')
      .subscribe(tokens.get(carol))
    const left = new Promise<Found>((resolve) => viaParse.on('leave', resolve))
    const native = await nativeLive(carol)
    native.send({ op: 'subscribe', requestId: 1, className: 'Ticket', where: { status: 'open' } })
    await expect.poll(() => native.messages.some((m) => m.op === 'subscribed')).toBe(true)

    ticket.set('status', 'closed')
    await ticket.save(null, asBob)
    expect((await left).get('status')).toBe('closed')
    await expect
      .poll(() => native.messages.find((m) => m.op === 'leave'))
      .toMatchObject({ object: { data: { status: 'closed' } } })
    native.close()
    await viaParse.unsubscribe()
  })
})
