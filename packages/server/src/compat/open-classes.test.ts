import { createRequire } from 'node:module'
import { describe, expect, it, vi } from 'vitest'
import { getAddress } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { databaseKinds, signedIn, testConfig } from '../../test/helpers.ts'
import { parseLogIn, parseTargetForSuite, type ParseSdk } from '../../test/compat.ts'

// What Parse's defaults leave open, as the site team sees it (the line logged at start, the
// console's list) and closes it (the console's one step), with the real `parse` client writing
// signed out before and after.

const require = createRequire(import.meta.url)
const Parse = require('parse/node') as ParseSdk

const MASTER = 'master-key-for-the-open-classes'
const ADMIN = getAddress(`0x${'a4'.repeat(20)}`)

describe.each(databaseKinds())('classes open to signed-out writes on %s', (kind) => {
  const target = parseTargetForSuite(
    kind,
    Parse,
    MASTER,
    {},
    {
      app: { ...testConfig().app, adminAddresses: [ADMIN] },
    },
  )
  const alice = privateKeyToAccount(generatePrivateKey())
  const console = async (method: 'GET' | 'POST', url: string) =>
    target().app.inject({ method, url, headers: (await signedIn(target().app, ADMIN)).headers })

  it('names them at start and in the console, and closes one to signed-in users in one step', async () => {
    // A visitor's entry, and alice's note saved without an ACL: both everyone's to write.
    const entry = await new Parse.Object('Guestbook', { n: 1 }).save()
    await parseLogIn(Parse, alice)
    const note = await new Parse.Object('Board', { n: 1 }).save()
    const kept = new Parse.Object('Vault', { n: 1 })
    kept.setACL(new Parse.ACL({ '*': { read: true } }))
    await kept.save()
    await Parse.User.logOut()
    const vault = new Parse.Schema('Vault')
    vault.setCLP({
      find: { '*': true },
      get: { '*': true },
      create: { requiresAuthentication: true },
    })
    await vault.update()

    const warn = vi.spyOn(target().app.services.log, 'warn')
    target().app.services.start()
    await expect
      .poll(() => warn.mock.calls.map((call) => call[0]))
      .toContain(
        'Classes anyone signed out may write: Board (create, write), Guestbook (create, write). Close one to signed-in users in the console (Objects), or set its permissions.',
      )
    const listed = await console('GET', '/api/admin/open-classes')
    expect(listed.json()).toEqual({
      classes: [
        { className: 'Board', create: true, write: true },
        { className: 'Guestbook', create: true, write: true },
      ],
    })

    const closed = await console('POST', '/api/admin/classes/Guestbook/close')
    expect(closed.statusCode).toBe(200)
    expect(closed.json().classLevelPermissions).toMatchObject({
      find: { '*': true },
      create: { requiresAuthentication: true },
      update: { requiresAuthentication: true },
      delete: { requiresAuthentication: true },
    })
    const [audited] = await target().app.services.audit.list({ limit: 1 })
    expect(audited).toMatchObject({ actor: ADMIN, action: 'class.close', target: 'Guestbook' })
    expect((await console('GET', '/api/admin/open-classes')).json().classes).toEqual([
      { className: 'Board', create: true, write: true },
    ])

    // Signed out, refused now; read as before.
    await expect(new Parse.Object('Guestbook', { n: 2 }).save()).rejects.toMatchObject({
      code: 209,
    })
    const seen = await new Parse.Query('Guestbook').get(entry.id)
    seen.set('n', 3)
    // Parse's answer to a signed-out caller where a sign-in is required.
    const needsSignIn = { code: 101, message: 'Permission denied, user needs to be authenticated.' }
    await expect(seen.save()).rejects.toMatchObject(needsSignIn)
    await expect(seen.destroy()).rejects.toMatchObject(needsSignIn)
    // Signed in, as before.
    await parseLogIn(Parse, alice)
    seen.set('n', 4)
    await seen.save()
    await new Parse.Object('Guestbook', { n: 5 }).save()
    await Parse.User.logOut()
    // The class left open stays so.
    const board = await new Parse.Query('Board').get(note.id)
    board.set('n', 2)
    await board.save()
  })

  it('lets only the team see the list and only admins close', async () => {
    const member = await signedIn(target().app)
    for (const [method, url] of [
      ['GET', '/api/admin/open-classes'],
      ['POST', '/api/admin/classes/Board/close'],
    ] as const) {
      const refused = await target().app.inject({ method, url, headers: member.headers })
      expect(refused.statusCode).toBe(403)
    }
    expect((await console('POST', '/api/admin/classes/not%20a%20class/close')).statusCode).toBe(400)
  })
})
