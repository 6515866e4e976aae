import { createRequire } from 'node:module'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { databaseKinds } from '../../test/helpers.ts'
import { parseLogIn, type ListeningApp, type ParseSdk, parseTarget } from '../../test/compat.ts'

// What a client that is not signed in may write, through the real `parse` client and Portico's
// own routes: changes and deletes as the object's ACL and its class's permissions let everyone
// (Parse's rule); with COMPAT_STRICT_DEFAULTS, creates only in a class whose permissions let
// everyone create (Parse's defaults, without it, are in parse-defaults.test.ts).

const require = createRequire(import.meta.url)
const Parse = require('parse/node') as ParseSdk

const MASTER = 'master-key-for-the-signed-out-tests'

describe.each(databaseKinds())('writes without a sign-in on %s', (kind) => {
  let server: ListeningApp
  const alice = privateKeyToAccount(generatePrivateKey())
  const master = { useMasterKey: true }
  const acl = (read: boolean, write: boolean) => {
    const made = new Parse.ACL()
    made.setPublicReadAccess(read)
    made.setPublicWriteAccess(write)
    return made
  }
  /** An object of `className` saved by alice with `objectAcl` (her default ACL when undefined). */
  async function made(className: string, objectAcl?: unknown) {
    await parseLogIn(Parse, alice)
    const object = new Parse.Object(className, { n: 1 })
    if (objectAcl) object.setACL(objectAcl)
    await object.save()
    await Parse.User.logOut()
    return object
  }
  const stored = (className: string, id: string) =>
    new Parse.Query(className).get(id, master).then(
      (found: { get(key: string): unknown }) => found.get('n'),
      (error: { code: number }) => (error.code === 101 ? 'gone' : Promise.reject(error)),
    )

  beforeAll(async () => {
    server = await parseTarget(kind, Parse, MASTER, { strictDefaults: true })
    Parse.User.enableUnsafeCurrentUser()
  })
  afterAll(async () => {
    await Parse.User.logOut().catch(() => {})
    await server.close()
  })

  it('changes and deletes what the ACL lets everyone write, as Parse does', async () => {
    const open = await made('Board', acl(true, true))
    expect(Parse.User.current()).toBeNull()
    const seen = await new Parse.Query('Board').get(open.id)
    seen.increment('n', 4)
    await seen.save()
    expect(seen.get('n')).toBe(5)
    expect(await stored('Board', open.id)).toBe(5)
    // Batches too (saveAll / destroyAll go through the mount's batch).
    const other = await made('Board', acl(false, true))
    other.set('n', 7)
    await Parse.Object.saveAll([other])
    expect(await stored('Board', other.id)).toBe(7)
    await Parse.Object.destroyAll([other])
    expect(await stored('Board', other.id)).toBe('gone')
    await seen.destroy()
    expect(await stored('Board', open.id)).toBe('gone')
  })

  it("refuses what the ACL does not let everyone write (101, as Parse), and a stale token's writes (209)", async () => {
    for (const objectAcl of [acl(true, false), undefined]) {
      const object = await made('Board', objectAcl)
      const seen = await new Parse.Query('Board').get(object.id)
      seen.set('n', 2)
      await expect(seen.save()).rejects.toMatchObject({ code: 101 })
      await expect(seen.destroy()).rejects.toMatchObject({ code: 101 })
      expect(await stored('Board', object.id)).toBe(1)
    }
    const open = await made('Board', acl(true, true))
    const stale = await parseLogIn(Parse, alice)
    const token = stale.getSessionToken()
    await Parse.User.logOut()
    const answer = await fetch(`${server.serverUrl}/classes/Board/${open.id}`, {
      method: 'PUT',
      headers: {
        'content-type': 'application/json',
        'x-parse-application-id': 'portico',
        'x-parse-session-token': token,
      },
      body: JSON.stringify({ n: 9 }),
    })
    expect(await answer.json()).toMatchObject({ code: 209 })
    expect(await stored('Board', open.id)).toBe(1)
  })

  it('meets the class-level permissions: update and delete refused (119) where they name no one', async () => {
    const open = await made('Locked', acl(true, true))
    const schema = new Parse.Schema('Locked')
    schema.setCLP({
      find: { '*': true },
      get: { '*': true },
      count: { '*': true },
      create: { '*': true },
      update: { requiresAuthentication: true },
      delete: {},
      addField: { '*': true },
    })
    await schema.update()
    const seen = await new Parse.Query('Locked').get(open.id)
    seen.set('n', 3)
    await expect(seen.save()).rejects.toMatchObject({ code: 101 })
    await expect(seen.destroy()).rejects.toMatchObject({ code: 119 })
    expect(await stored('Locked', open.id)).toBe(1)
  })

  it('creates only where the class lets everyone create (209 elsewhere)', async () => {
    await expect(new Parse.Object('Guestbook', { n: 1 }).save()).rejects.toMatchObject({
      code: 209,
    })
    await expect(new Parse.Object('Note', { n: 1 }).save()).rejects.toMatchObject({ code: 209 })
    const schema = new Parse.Schema('Guestbook')
    // Its field declared up front: permissions leave addField out, so it is the master key's.
    schema.addNumber('n')
    const open = { '*': true }
    schema.setCLP({ find: open, get: open, create: open, update: open })
    await schema.save()
    const entry = new Parse.Object('Guestbook', { n: 1 })
    await entry.save()
    expect(await stored('Guestbook', entry.id)).toBe(1)
    // Without an ACL it is everyone's to read and no one's to change (there is no creator).
    expect((await new Parse.Query('Guestbook').get(entry.id)).get('n')).toBe(1)
    entry.set('n', 2)
    await expect(entry.save()).rejects.toMatchObject({ code: 101 })
    // With one, as it says.
    const shared = new Parse.Object('Guestbook', { n: 1 })
    shared.setACL(acl(true, true))
    await shared.save()
    shared.set('n', 2)
    await shared.save()
    expect(await stored('Guestbook', shared.id)).toBe(2)
  })

  it("follows the same rule on Portico's own routes and batches", async () => {
    const open = await made('Board', acl(true, true))
    const locked = await made('Board', acl(true, false))
    const url = (id: string) => `/api/classes/Board/${id}`
    const put = (id: string) =>
      server.app.inject({ method: 'PUT', url: url(id), payload: { data: { n: 6 } } })
    expect((await put(open.id)).statusCode).toBe(200)
    expect((await put(locked.id)).statusCode).toBe(403)
    const batch = await server.app.inject({
      method: 'POST',
      url: '/api/batch',
      payload: {
        requests: [
          { method: 'DELETE', path: url(locked.id) },
          { method: 'POST', path: '/api/classes/Board', body: { data: {} } },
          { method: 'POST', path: '/api/classes/Guestbook', body: { data: {}, publicRead: true } },
          { method: 'DELETE', path: url(open.id) },
        ],
      },
    })
    const results = batch.json().results as { status: number }[]
    expect(results.map((r) => r.status)).toEqual([403, 401, 201, 204])
    expect(await stored('Board', open.id)).toBe('gone')
    expect(await stored('Board', locked.id)).toBe(1)
  })
})
