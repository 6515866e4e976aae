import { createRequire } from 'node:module'
import { describe, expect, it } from 'vitest'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { databaseKinds } from '../../test/helpers.ts'
import { parseLogIn, parseTargetForSuite, type ParseSdk } from '../../test/compat.ts'

// Parse's defaults on the mount, through the real `parse` client: a class without permissions
// takes creates from clients that are not signed in, and an object saved without an ACL is
// everyone's to read and write, whoever saved it. `/api` keeps its own rules. With
// COMPAT_STRICT_DEFAULTS, Portico's narrower ones.

const require = createRequire(import.meta.url)
const Parse = require('parse/node') as ParseSdk

const MASTER = 'master-key-for-the-parse-defaults'

describe.each(databaseKinds())("Parse's defaults on %s", (kind) => {
  const alice = privateKeyToAccount(generatePrivateKey())
  const master = { useMasterKey: true }
  const stored = (className: string, id: string) =>
    new Parse.Query(className).get(id, master).then(
      (found: { get(key: string): unknown }) => found.get('n'),
      (error: { code: number }) => (error.code === 101 ? 'gone' : Promise.reject(error)),
    )
  /** An object of `className` saved by alice without an ACL. */
  async function aliceMade(className: string) {
    await parseLogIn(Parse, alice)
    const object = await new Parse.Object(className, { n: 1 }).save()
    await Parse.User.logOut()
    return object
  }

  describe('by default', () => {
    const server = parseTargetForSuite(kind, Parse, MASTER)

    it('lets a signed-out client create, change and delete in a class without permissions', async () => {
      expect(Parse.User.current()).toBeNull()
      const entry = await new Parse.Object('Guestbook', { n: 1 }).save()
      const seen = await new Parse.Query('Guestbook').get(entry.id)
      expect(seen.getACL().toJSON()).toEqual({ '*': { read: true, write: true } })
      seen.increment('n', 2)
      await seen.save()
      expect(await stored('Guestbook', entry.id)).toBe(3)
      // Batches too.
      const [a, b] = await Parse.Object.saveAll([
        new Parse.Object('Guestbook', { n: 5 }),
        new Parse.Object('Guestbook', { n: 6 }),
      ])
      await Parse.Object.destroyAll([a, seen])
      expect(await stored('Guestbook', a.id)).toBe('gone')
      expect(await stored('Guestbook', entry.id)).toBe('gone')
      expect(await stored('Guestbook', b.id)).toBe(6)
    })

    it('lets anyone change an object its creator saved without an ACL, as Parse does', async () => {
      const object = await aliceMade('Board')
      const seen = await new Parse.Query('Board').get(object.id)
      seen.set('n', 2)
      await seen.save()
      expect(await stored('Board', object.id)).toBe(2)
      await seen.destroy()
      expect(await stored('Board', object.id)).toBe('gone')
    })

    it('keeps what an ACL or permissions say, and Parse classes and /api their own rules', async () => {
      const kept = new Parse.Object('Board', { n: 1 })
      kept.setACL(new Parse.ACL({ '*': { read: true } }))
      await kept.save()
      kept.set('n', 2)
      await expect(kept.save()).rejects.toMatchObject({ code: 101 })
      const schema = new Parse.Schema('Closed')
      schema.setCLP({
        find: { '*': true },
        get: { '*': true },
        create: { requiresAuthentication: true },
      })
      await schema.save()
      await expect(new Parse.Object('Closed', { n: 1 }).save()).rejects.toMatchObject({
        code: 209,
      })
      await expect(new Parse.Role('visitors', new Parse.ACL()).save()).rejects.toMatchObject({
        code: 209,
      })
      const viaApi = await server().app.inject({
        method: 'POST',
        url: '/api/classes/Guestbook',
        payload: { data: { n: 1 } },
      })
      expect(viaApi.statusCode).toBe(401)
    })
  })

  describe('with COMPAT_STRICT_DEFAULTS', () => {
    parseTargetForSuite(kind, Parse, MASTER, { strictDefaults: true })

    it('refuses signed-out creates and keeps a no-ACL object its creator’s to change', async () => {
      await expect(new Parse.Object('Guestbook', { n: 1 }).save()).rejects.toMatchObject({
        code: 209,
      })
      const user = await parseLogIn(Parse, alice)
      await Parse.User.logOut()
      const object = await aliceMade('Board')
      const kept = await new Parse.Query('Board').get(object.id, master)
      expect(kept.getACL().toJSON()).toEqual({
        '*': { read: true },
        [user.id]: { read: true, write: true },
      })
      const seen = await new Parse.Query('Board').get(object.id)
      seen.set('n', 2)
      await expect(seen.save()).rejects.toMatchObject({ code: 101 })
      expect(await stored('Board', object.id)).toBe(1)
    })
  })
})
