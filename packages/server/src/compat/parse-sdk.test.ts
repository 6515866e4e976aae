import { createRequire } from 'node:module'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts'
import { databaseKinds } from '../../test/helpers.ts'
import { listeningApp, parseLogIn, type ListeningApp, parseSignOff } from '../../test/compat.ts'

// The real `parse` package (Parse JS SDK, Node build) signing in with `logInWith('moralisEth')`
// and using objects, ACLs, batches, files and LiveQuery on Portico's mount.

const require = createRequire(import.meta.url)
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- loose SDK types
const Parse = require('parse/node') as any

describe.each(databaseKinds())('the parse SDK against the mount on %s', (kind) => {
  let server: ListeningApp
  const alice = privateKeyToAccount(generatePrivateKey())
  const bob = privateKeyToAccount(generatePrivateKey())

  beforeAll(async () => {
    server = await listeningApp(kind)
    Parse.initialize('portico')
    Parse.serverURL = server.serverUrl
    Parse.liveQueryServerURL = server.serverUrl.replace(/^http/, 'ws')
    Parse.User.enableUnsafeCurrentUser()
  })
  afterAll(async () => {
    await parseSignOff(Parse)
  })

  async function logInAs(account: PrivateKeyAccount) {
    return parseLogIn(Parse, account)
  }

  it('logs in with authData.moralisEth, then again as the same user', async () => {
    const first = await logInAs(alice)
    expect(first.getSessionToken()).toMatch(/^r:/)
    expect(first.get('ethAddress')).toBe(alice.address.toLowerCase())
    const second = await logInAs(alice)
    expect(second.id).toBe(first.id)
  })

  it('saves with ACLs of any shape and queries what the viewer may read', async () => {
    const bobUser = await logInAs(bob)
    const Note = Parse.Object.extend('Note')
    const shared = new Note({ text: 'for everyone' })
    const acl = new Parse.ACL(bobUser)
    acl.setPublicReadAccess(true)
    shared.setACL(acl)
    await shared.save()
    const secret = new Note({ text: 'for bob' })
    secret.setACL(new Parse.ACL(bobUser))
    await secret.save()
    const open = new Note({ text: 'writable by all' })
    const publicWrite = new Parse.ACL(bobUser)
    publicWrite.setPublicWriteAccess(true)
    open.setACL(publicWrite)
    await open.save()

    const aliceUser = await logInAs(alice)
    expect(aliceUser.id).not.toBe(bobUser.id)
    const seen = await new Parse.Query('Note').ascending('createdAt').find()
    expect(seen.map((n: { get(k: string): unknown }) => n.get('text'))).toEqual(['for everyone'])
    await expect(new Parse.Query('Note').get(secret.id)).rejects.toMatchObject({ code: 101 })
    // Alice can read Bob's public note but not change it: Parse's answer, 101.
    const theirs = await new Parse.Query('Note').get(shared.id)
    theirs.set('text', 'defaced')
    await expect(theirs.save()).rejects.toMatchObject({ code: 101 })
    // Everyone may write the public-write note (without reading it: its ACL gives no read).
    const anyone = Note.createWithoutData(open.id)
    anyone.set('text', 'changed by alice')
    await anyone.save()
    await logInAs(bob)
    const changed = await new Parse.Query('Note').get(open.id)
    expect(changed.get('text')).toBe('changed by alice')
    expect(changed.getACL().getPublicWriteAccess()).toBe(true)
  })

  it('saveAll in batches, then a query with $in, order, skip and count', async () => {
    await logInAs(alice)
    const Row = Parse.Object.extend('Row')
    const rows = Array.from({ length: 30 }, (_, i) => new Row({ n: i, even: i % 2 === 0 }))
    await Parse.Object.saveAll(rows)
    const query = new Parse.Query('Row')
    query.containedIn('n', [3, 4, 5, 6, 7])
    query.equalTo('even', false)
    query.descending('n')
    query.skip(1)
    query.withCount()
    const { results, count } = await query.find()
    expect(count).toBe(3)
    expect(results.map((r: { get(k: string): number }) => r.get('n'))).toEqual([5, 3])
  })

  it('saves a File from bytes and links it from an object', async () => {
    await logInAs(alice)
    const file = new Parse.File('pixel.png', [137, 80, 78, 71, 13, 10, 26, 10], 'image/png')
    await file.save()
    const Post = Parse.Object.extend('Post')
    const post = await new Post({ image: file }).save()
    const fetched = await new Parse.Query('Post').get(post.id)
    const answer = await fetch(fetched.get('image').url())
    expect(answer.headers.get('content-type')).toBe('image/png')
    expect([...new Uint8Array(await answer.arrayBuffer())]).toEqual([
      137, 80, 78, 71, 13, 10, 26, 10,
    ])
  })

  it('gets live updates: enter and leave as an object starts and stops matching', async () => {
    await logInAs(alice)
    const query = new Parse.Query('Task')
    query.equalTo('done', true)
    const subscription = await query.subscribe()
    const events: string[] = []
    const seen = new Promise<void>((resolve) => {
      for (const name of ['create', 'enter', 'update', 'leave'])
        subscription.on(name, (object: { get(k: string): unknown }) => {
          events.push(`${name}:${String(object.get('title'))}`)
          if (name === 'leave') resolve()
        })
    })
    const Task = Parse.Object.extend('Task')
    const task = await new Task({ title: 'write', done: false }).save()
    task.set('done', true)
    await task.save()
    task.set('title', 'write more')
    await task.save()
    task.set('done', false)
    await task.save()
    await seen
    expect(events).toEqual(['enter:write', 'update:write more', 'leave:write more'])
    await subscription.unsubscribe()
  })

  it('become() with a stale token answers 209', async () => {
    await expect(Parse.User.become('r:stale-token')).rejects.toMatchObject({ code: 209 })
    const user = await logInAs(alice)
    const token = user.getSessionToken()
    await Parse.User.logOut()
    await expect(Parse.User.become(token)).rejects.toMatchObject({ code: 209 })
  })
})
