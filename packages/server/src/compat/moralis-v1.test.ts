import { createRequire } from 'node:module'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { privateKeyToAccount, generatePrivateKey } from 'viem/accounts'
import { databaseKinds } from '../../test/helpers.ts'
import { keepOnLoopback, listeningApp, type ListeningApp } from '../../test/compat.ts'

// The real moralis-v1 package (Node build), pointed at Portico's mount as a v1 app is.

const require = createRequire(import.meta.url)
keepOnLoopback('moralis-v1/lib/node/RESTController.js')
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the v1 SDK ships loose types
const Moralis = require('moralis-v1/node') as any

describe.each(databaseKinds())('moralis-v1 against the mount on %s', (kind) => {
  let server: ListeningApp
  const privateKey = generatePrivateKey()
  const address = privateKeyToAccount(privateKey).address.toLowerCase()

  beforeAll(async () => {
    server = await listeningApp(kind)
    Moralis.User.enableUnsafeCurrentUser()
    await Moralis.start({ serverUrl: server.serverUrl, appId: 'portico' })
  })
  afterAll(async () => {
    await Moralis.LiveQuery.close().catch(() => {})
    await Moralis.User.logOut().catch(() => {})
    // The next suite's server is another one: forget this one's live-query connection.
    Moralis.CoreManager.set('LIVEQUERY_SERVER_URL', null)
    Moralis.CoreManager.getLiveQueryController()._clearCachedDefaultClient()
  })

  it('authenticates with a private key and keeps the user', async () => {
    const user = await Moralis.authenticate({
      provider: 'network',
      urls: { 1: 'http://127.0.0.1:9' },
      chainId: 1,
      privateKey,
    })
    expect(user.get('ethAddress')).toBe(address)
    expect(user.get('accounts')).toEqual([address])
    expect(user.getSessionToken()).toMatch(/^r:/)
    const me = await Moralis.User.me(user.getSessionToken())
    expect(me.id).toBe(user.id)
  })

  it('saves with operations, queries, counts, gets, and raises 101 on a miss', async () => {
    const Item = Moralis.Object.extend('Item')
    const item = new Item()
    item.set('name', 'lamp')
    item.set('price', 10)
    item.set('tags', ['a'])
    await item.save()
    item.increment('price', 5)
    item.addUnique('tags', 'b')
    item.addUnique('tags', 'a')
    await item.save()
    item.remove('tags', 'a')
    item.unset('name')
    await item.save()

    const fetched = await new Moralis.Query('Item').get(item.id)
    expect(fetched.get('price')).toBe(15)
    expect(fetched.get('tags')).toEqual(['b'])
    expect(fetched.has('name')).toBe(false)

    const query = new Moralis.Query('Item')
    query.greaterThan('price', 12)
    expect((await query.find()).map((o: { id: string }) => o.id)).toEqual([item.id])
    expect(await query.count()).toBe(1)
    expect((await query.first()).id).toBe(item.id)
    const none = new Moralis.Query('Item')
    none.greaterThan('price', 100)
    expect(await none.count()).toBe(0)
    await expect(new Moralis.Query('Item').get('nope')).rejects.toMatchObject({ code: 101 })
  })

  it('saves 25 objects with saveAll (two batches) and finds them by regex', async () => {
    const Thing = Moralis.Object.extend('Thing')
    const things = Array.from({ length: 25 }, (_, i) => {
      const thing = new Thing()
      thing.set('label', `thing-${String(i).padStart(2, '0')}`)
      thing.set('i', i)
      return thing
    })
    await Moralis.Object.saveAll(things)
    expect(things.every((t) => typeof t.id === 'string')).toBe(true)
    const query = new Moralis.Query('Thing')
    query.matches('label', '^THING-1', 'i')
    query.ascending('i')
    const found = await query.find()
    expect(found.map((t: { get(k: string): number }) => t.get('i'))).toEqual([
      10, 11, 12, 13, 14, 15, 16, 17, 18, 19,
    ])
  })

  it('saves a file whose URL serves the bytes', async () => {
    const file = new Moralis.File('hello.txt', {
      base64: Buffer.from('hello portico').toString('base64'),
    })
    await file.save()
    expect(file.url()).toContain('/server/files/portico/')
    const answer = await fetch(file.url())
    expect(answer.status).toBe(200)
    expect(await answer.text()).toBe('hello portico')
  })

  it('runs cloud functions: built-ins, and 141 for an unknown one', async () => {
    expect(await Moralis.Cloud.run('getPluginSpecs')).toEqual([])
    await expect(Moralis.Cloud.run('noSuchFunction')).rejects.toMatchObject({ code: 141 })
    expect(await Moralis.Cloud.run('trackEvent', { event: 'signup', subdomain: 'www' })).toEqual({
      ok: true,
    })
  })

  it('receives a live create event and destroys the object', async () => {
    const query = new Moralis.Query('Live')
    query.equalTo('room', 'r1')
    const subscription = await query.subscribe()
    const created = new Promise<{ get(k: string): unknown; id: string }>((resolve) =>
      subscription.on('create', resolve),
    )
    const Live = Moralis.Object.extend('Live')
    const other = new Live()
    other.set('room', 'r2')
    await other.save()
    const live = new Live()
    live.set('room', 'r1')
    await live.save()
    const event = await created
    expect(event.id).toBe(live.id)
    expect(event.get('room')).toBe('r1')
    const deleted = new Promise<{ id: string }>((resolve) => subscription.on('delete', resolve))
    await live.destroy()
    expect((await deleted).id).toBe(live.id)
    await subscription.unsubscribe()
    await expect(new Moralis.Query('Live').get(live.id)).rejects.toMatchObject({ code: 101 })
  })

  it('logs out: the session is gone on the server', async () => {
    const token = Moralis.User.current().getSessionToken()
    await Moralis.User.logOut()
    expect(Moralis.User.current()).toBeNull()
    await expect(Moralis.User.become(token)).rejects.toMatchObject({ code: 209 })
  })
})
