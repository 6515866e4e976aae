import { createRequire } from 'node:module'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { freePort } from '@portico/test-kit/ports'
import { databaseKinds } from '../../test/helpers.ts'
import { parseLogIn, type ListeningApp, parseTarget, parseSignOff } from '../../test/compat.ts'

// Saves through the real `parse` package (Parse JS SDK, Node build) as the SDK's own integration
// suite makes them: operations whose results the client learns from the answer, dot-notation
// keys on nested objects, LiveQuery across signing out and in again, the offline queue
// (`saveEventually`, `destroyEventually`) and `Parse.Config`.

const require = createRequire(import.meta.url)
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- loose SDK types
const Parse = require('parse/node') as any

const MASTER = 'master-key-for-the-save-tests'

describe.each(databaseKinds())('saves through the parse SDK on %s', (kind) => {
  let server: ListeningApp
  const alice = privateKeyToAccount(generatePrivateKey())
  const bob = privateKeyToAccount(generatePrivateKey())

  beforeAll(async () => {
    server = await parseTarget(kind, Parse, MASTER)
    Parse.User.enableUnsafeCurrentUser()
    await parseLogIn(Parse, alice)
  })
  afterAll(async () => {
    await parseSignOff(Parse)
    await server.close()
  })

  const Item = Parse.Object.extend('Item')
  const fetched = (id: string) => new Parse.Query('Item').get(id)

  it('keeps the new values of increment and add after save, as stored', async () => {
    const item = await new Item({ price: 10, tags: ['a'] }).save()
    item.increment('price', 5)
    item.add('tags', 'b')
    item.add('tags', 'c')
    await item.save()
    expect(item.get('price')).toBe(15)
    expect(item.get('tags')).toEqual(['a', 'b', 'c'])
    // An object the client never read: only the answer tells it the stored values.
    const blind = Item.createWithoutData(item.id)
    blind.increment('price', 2)
    blind.remove('tags', 'b')
    await blind.save()
    expect(blind.get('price')).toBe(17)
    expect(blind.get('tags')).toEqual(['a', 'c'])
    // The same in a batch.
    const other = Item.createWithoutData(item.id)
    other.increment('price', -7)
    await Parse.Object.saveAll([other])
    expect(other.get('price')).toBe(10)
    // And on creation.
    const created = new Item()
    created.increment('count', 3)
    created.add('tags', 'z')
    await created.save()
    expect([created.get('count'), created.get('tags')]).toEqual([3, ['z']])
    expect((await fetched(item.id)).get('price')).toBe(10)
  })

  it('Parse.File#destroy deletes a file with the master key only; an unknown file is 153', async () => {
    const file = await new Parse.File('note.txt', [104, 105], 'text/plain').save()
    expect((await fetch(file.url())).status).toBe(200)
    await expect(file.destroy({ useMasterKey: false })).rejects.toMatchObject({ code: 119 })
    expect((await fetch(file.url())).status).toBe(200)
    await file.destroy({ useMasterKey: true })
    expect((await fetch(file.url())).status).toBe(404)
    await expect(file.destroy({ useMasterKey: true })).rejects.toMatchObject({
      code: 153,
      message: 'Could not delete file.',
    })
  })

  it('sets, unsets and increments nested keys with dot notation', async () => {
    const item = await new Item({ objectField: { number: 5, string: 'x', deep: { a: 1 } } }).save()
    item.set('objectField.string', 'y')
    item.increment('objectField.number', 10)
    item.set('objectField.deep.b', [1, 2])
    item.unset('objectField.deep.a')
    await item.save()
    expect(item.get('objectField')).toEqual({ number: 15, string: 'y', deep: { b: [1, 2] } })
    expect((await fetched(item.id)).get('objectField')).toEqual({
      number: 15,
      string: 'y',
      deep: { b: [1, 2] },
    })
    // On an object the client never read, and a path that does not exist yet.
    const blind = Item.createWithoutData(item.id)
    blind.increment('objectField.number', 1)
    blind.set('fresh.inner', true)
    await blind.save()
    expect(blind.get('objectField').number).toBe(16)
    expect((await fetched(item.id)).get('fresh')).toEqual({ inner: true })
    // Through a value that is not an object: refused, nothing changed.
    const wrong = Item.createWithoutData(item.id)
    wrong.set('objectField.string.x', 1)
    await expect(wrong.save()).rejects.toMatchObject({ code: 111 })
    expect((await fetched(item.id)).get('objectField').string).toBe('y')
  })

  it('LiveQuery accepts a signed-out token at connect, and events carry the installationId', async () => {
    // The SDK's default LiveQuery client keeps the token it connected with: sign bob in, connect,
    // sign him out, sign alice in, and subscribe again.
    await parseLogIn(Parse, bob)
    const first = await new Parse.Query('Ping').subscribe()
    await first.unsubscribe()
    await Parse.LiveQuery.close()
    await Parse.User.logOut()
    const user = await parseLogIn(Parse, alice)
    const subscription = await new Parse.Query('Ping').subscribe()
    const installationId =
      await Parse.CoreManager.getInstallationController().currentInstallationId()
    const created = new Promise<{ object: { get(k: string): unknown }; response: unknown }>(
      (resolve) =>
        subscription.on('create', (object: { get(k: string): unknown }, response: unknown) =>
          resolve({ object, response }),
        ),
    )
    const Ping = Parse.Object.extend('Ping')
    // Only alice may read it: the subscription reads as alice, not as a visitor.
    const ping = new Ping({ n: 1 })
    ping.setACL(new Parse.ACL(user))
    await ping.save()
    const { object, response } = await created
    expect(object.get('n')).toBe(1)
    expect(response).toMatchObject({ installationId })
    await subscription.unsubscribe()
  })

  it('keeps saveEventually and destroyEventually while offline, and sends them on /health', async () => {
    await parseLogIn(Parse, alice)
    const kept = await new Item({ name: 'to destroy' }).save()
    const { EventuallyQueue } = Parse
    await EventuallyQueue.clear()
    const attempts = Parse.CoreManager.get('REQUEST_ATTEMPT_LIMIT')
    Parse.CoreManager.set('REQUEST_ATTEMPT_LIMIT', 1)
    // Nothing listens on that port: the calls fail as they would offline.
    Parse.serverURL = `http://127.0.0.1:${await freePort()}/server`
    try {
      const offline = new Item({ name: 'made offline' })
      await offline.saveEventually()
      await kept.destroyEventually()
      expect(await EventuallyQueue.length()).toBe(2)
    } finally {
      Parse.serverURL = server.serverUrl
      Parse.CoreManager.set('REQUEST_ATTEMPT_LIMIT', attempts)
    }
    EventuallyQueue.stopPoll()
    EventuallyQueue.poll(50)
    for (let i = 0; i < 200 && (await EventuallyQueue.length()) > 0; i++)
      await new Promise((resolve) => setTimeout(resolve, 50))
    expect(await EventuallyQueue.length()).toBe(0)
    const names = (await new Parse.Query('Item').exists('name').find()).map(
      (o: { get(k: string): unknown }) => o.get('name'),
    )
    expect(names).toEqual(['made offline'])
  })

  it('Parse.Config: clients read it, only the master key writes it and reads its private part', async () => {
    await parseLogIn(Parse, alice)
    expect((await Parse.Config.get()).get('welcome')).toBeUndefined()
    await Parse.Config.save(
      {
        welcome: 'hello',
        limits: { max: 3 },
        since: new Date('2024-01-02T03:04:05Z'),
        secret: 's',
      },
      { secret: true },
    )
    await Parse.Config.save({ limits: { max: 4 } })
    const config = await Parse.Config.get()
    expect(config.get('welcome')).toBe('hello')
    expect(config.get('limits')).toEqual({ max: 4 })
    expect(config.get('since')).toEqual(new Date('2024-01-02T03:04:05Z'))
    expect(config.get('secret')).toBeUndefined()
    const master = await Parse.Config.get({ useMasterKey: true })
    expect(master.get('secret')).toBe('s')
    // Without the master key a change is refused.
    await expect(
      fetch(`${server.serverUrl}/config`, {
        method: 'PUT',
        headers: { 'x-parse-application-id': 'portico', 'content-type': 'application/json' },
        body: JSON.stringify({ params: { welcome: 'defaced' } }),
      }).then((r) => r.json()),
    ).resolves.toMatchObject({ code: 119 })
    await Parse.Config.save({ welcome: { __op: 'Delete' } })
    expect((await Parse.Config.get()).get('welcome')).toBeUndefined()
  })
})
