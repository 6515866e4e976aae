import { createRequire } from 'node:module'
import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { getAddress } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { databaseKinds, signedIn, testConfig } from '../../test/helpers.ts'
import {
  parseLogIn,
  parseTargetForSuite,
  type ListeningApp,
  type ParseSdk,
} from '../../test/compat.ts'
import { DELETED_OWNER } from '../auth/delete-user.ts'
import { objects, userAddresses } from '../db/schema.ts'

// Users deleted as in Parse, through the real `parse` client (`user.destroy()` by the user and
// with the master key) and the console: their sessions, wallets and password go, and what they
// own is kept (USER_DELETE_OBJECTS=keep, the default) or deleted.

const require = createRequire(import.meta.url)
const Parse = require('parse/node') as ParseSdk

const MASTER = 'master-key-for-deleting-users'
const ADMIN = getAddress(`0x${'a6'.repeat(20)}`)

describe.each(databaseKinds())('deleting users on %s', (kind) => {
  const serverWith = (userDeleteObjects: 'keep' | 'delete') =>
    parseTargetForSuite(
      kind,
      Parse,
      MASTER,
      { userDeleteObjects },
      { app: { ...testConfig().app, adminAddresses: [ADMIN] } },
    )
  const ownerOf = (server: ListeningApp, id: string) =>
    server.app.services.database.db
      .select({ owner: objects.ownerId })
      .from(objects)
      .where(eq(objects.id, id))
      .then((rows) => rows[0]?.owner ?? 'gone')
  /** A post saved by the signed-in user, with their own ACL. */
  async function post(user: { id: string }) {
    const made = new Parse.Object('Post', { text: 'mine' })
    made.setACL(new Parse.ACL(user))
    return made.save()
  }

  describe('keeping what they own', () => {
    const target = serverWith('keep')

    it('lets a user delete themselves: no log-in, no session, their posts handed over', async () => {
      const ann = await Parse.User.signUp('ann', 'secret one', { email: 'ann@shop.test' })
      const token = ann.getSessionToken()
      const kept = await post(ann)
      await ann.destroy()
      await expect(Parse.User.logIn('ann', 'secret one')).rejects.toMatchObject({ code: 101 })
      await expect(Parse.User.become(token)).rejects.toMatchObject({ code: 209 })
      expect(await ownerOf(target(), kept.id)).toBe(DELETED_OWNER.id)
      expect(await ownerOf(target(), ann.id)).toBe('gone')
      const [entry] = await target().app.services.audit.list({ limit: 1 })
      expect(entry).toMatchObject({
        action: 'user.delete',
        target: `user/${ann.id}`,
        before: { username: 'ann', email: 'ann@shop.test', objects: 2 },
        after: { setting: 'keep', objectsKept: 1, objectsDeleted: 1 },
      })
      // The name is free again.
      await Parse.User.signUp('ann', 'secret two')
      await Parse.User.logOut()
    })

    it("refuses someone else's user (206), and deletes any with the master key", async () => {
      const wallet = privateKeyToAccount(generatePrivateKey())
      const bob = await parseLogIn(Parse, wallet)
      await post(bob)
      await Parse.User.logOut()
      const eve = await Parse.User.signUp('eve', 'secret')
      await expect(Parse.User.createWithoutData(bob.id).destroy()).rejects.toMatchObject({
        code: 206,
      })
      await eve.destroy()
      await Parse.User.createWithoutData(bob.id).destroy({ useMasterKey: true })
      const wallets = await target()
        .app.services.database.db.select()
        .from(userAddresses)
        .where(eq(userAddresses.address, wallet.address.toLowerCase()))
      expect(wallets).toEqual([])
      // The wallet signs in again as a new user.
      const again = await parseLogIn(Parse, wallet)
      expect(again.id).not.toBe(bob.id)
      await Parse.User.logOut()
      const [entry] = await target().app.services.audit.list({ limit: 1 })
      expect(entry!.actor).toMatch(/^master key/)
    })

    it('deletes a user from the console, an admin with a fresh sign-in', async () => {
      const carol = await Parse.User.signUp('carol', 'secret')
      await Parse.User.logOut()
      const admin = await signedIn(target().app, ADMIN)
      const member = await signedIn(target().app)
      const url = `/api/admin/users/${carol.id}`
      expect(
        (await target().app.inject({ method: 'DELETE', url, headers: member.headers })).statusCode,
      ).toBe(403)
      expect(
        (await target().app.inject({ method: 'DELETE', url, headers: admin.headers })).statusCode,
      ).toBe(204)
      expect(
        (await target().app.inject({ method: 'DELETE', url, headers: admin.headers })).statusCode,
      ).toBe(404)
      await expect(Parse.User.logIn('carol', 'secret')).rejects.toMatchObject({ code: 101 })
      const [entry] = await target().app.services.audit.list({ limit: 1 })
      expect(entry).toMatchObject({
        actor: ADMIN,
        action: 'user.delete',
        target: `user/${carol.id}`,
      })
    })
  })

  describe('with USER_DELETE_OBJECTS=delete', () => {
    const target = serverWith('delete')

    it('deletes what they own with them', async () => {
      const dan = await Parse.User.signUp('dan', 'secret')
      const gone = await post(dan)
      await dan.destroy()
      expect(await ownerOf(target(), gone.id)).toBe('gone')
      await expect(
        new Parse.Query('Post').get(gone.id, { useMasterKey: true }),
      ).rejects.toMatchObject({ code: 101 })
    })
  })
})
