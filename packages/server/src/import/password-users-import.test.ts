import { createRequire } from 'node:module'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { getAddress } from 'viem'
import { databaseKinds, signedIn, testConfig } from '../../test/helpers.ts'
import { parseTarget, type ListeningApp, type ParseSdk } from '../../test/compat.ts'
import { startSmtp, type TestSmtp } from '../../test/smtp.ts'
import type { ImportReport } from './parse-import.ts'

// A Parse Dashboard export never carries password hashes: its password users are imported all
// the same (username, email, the pointers and ACLs naming them), with no way in until they reset
// their password by mail, through a real SMTP server, and then log in with the real `parse`
// client. The files go through the console's import, whose report says so.

const require = createRequire(import.meta.url)
const Parse = require('parse/node') as ParseSdk

const ADMIN = getAddress(`0x${'a5'.repeat(20)}`)
const MASTER = 'master-key-for-the-import-of-users'
const at = '2026-11-20T10:00:00.000Z'
const own = (id: string) => ({ [id]: { read: true, write: true } })

// As Dashboard's "Export all rows" writes them: an array, one object a row, no hash.
const USERS = [
  {
    objectId: 'modUser01',
    username: 'mod',
    email: 'mod@forum.test',
    emailVerified: true,
    createdAt: at,
    updatedAt: at,
    ACL: { '*': { read: true }, ...own('modUser01') },
  },
  {
    objectId: 'annUser01',
    username: 'ann',
    email: 'ann@forum.test',
    createdAt: at,
    updatedAt: at,
    ACL: own('annUser01'),
  },
]
const ROLES = [
  {
    objectId: 'roleMods1',
    name: 'Moderators',
    users: { __type: 'Relation', className: '_User' },
    roles: { __type: 'Relation', className: '_Role' },
    createdAt: at,
    updatedAt: at,
    ACL: { '*': { read: true }, modUser01: { write: true } },
  },
]
const author = (id: string) => ({ __type: 'Pointer', className: '_User', objectId: id })
const COMMENTS = [
  {
    objectId: 'comment01',
    text: 'welcome',
    author: author('modUser01'),
    createdAt: at,
    updatedAt: at,
    ACL: { '*': { read: true }, ...own('modUser01'), 'role:Moderators': { write: true } },
  },
  {
    objectId: 'comment02',
    text: 'hello',
    author: author('annUser01'),
    createdAt: at,
    updatedAt: at,
    ACL: { '*': { read: true }, ...own('annUser01'), 'role:Moderators': { write: true } },
  },
  {
    objectId: 'comment01',
    text: 'the same objectId again',
    createdAt: at,
    updatedAt: at,
  },
]

describe.each(databaseKinds())('password users of a Dashboard export on %s', (kind) => {
  let server: ListeningApp
  let smtp: TestSmtp
  let admin: Record<string, string>
  beforeAll(async () => {
    smtp = await startSmtp()
    server = await parseTarget(
      kind,
      Parse,
      MASTER,
      {},
      {
        app: { ...testConfig().app, adminAddresses: [ADMIN] },
        mail: { smtpUrl: smtp.url, from: 'Forum <no-reply@forum.test>' },
      },
    )
    Parse.User.enableUnsafeCurrentUser()
    admin = (await signedIn(server.app, ADMIN)).headers
  })
  afterAll(async () => {
    await Parse.User.logOut().catch(() => {})
    await server.close()
    await smtp.close()
  })

  /** Imports one file through the console, as its page sends it; the report. */
  async function imported(className: string, rows: unknown[]): Promise<ImportReport> {
    const answer = await server.app.inject({
      method: 'POST',
      url: `/api/admin/import/${className}`,
      headers: { ...admin, 'content-type': 'application/json' },
      payload: JSON.stringify(rows, null, 2),
    })
    const lines = answer.body
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { report?: ImportReport })
    return lines.at(-1)!.report!
  }

  it('imports them with their references, and lets one in after a mailed reset', async () => {
    const users = await imported('_User', USERS)
    expect(users).toMatchObject({ imported: 2, refused: [], withoutPassword: 2 })
    expect(users.notes.join(' ')).toContain(
      '2 password users came without a password hash (a Dashboard export has none)',
    )
    expect(await imported('_Role', ROLES)).toMatchObject({ imported: 1, refused: [] })
    const comments = await imported('Comment', COMMENTS)
    expect(comments).toMatchObject({ imported: 2, unchanged: 0 })
    // The repeated objectId is refused, naming both lines (the file is pretty-printed).
    const lineOf = (n: number) =>
      JSON.stringify(COMMENTS, null, 2)
        .split('\n')
        .findIndex(
          (line, i, all) =>
            line === '  {' && all.slice(0, i).filter((l) => l === '  {').length === n,
        ) + 1
    expect(comments.refused).toEqual([
      {
        line: lineOf(2),
        objectId: 'comment01',
        field: 'objectId',
        reason: expect.stringContaining(
          `objectId "comment01" is on line ${lineOf(0)} and again on line ${lineOf(2)} of this file`,
        ),
      },
    ])
    // The class takes signed-out creates on the mount: the report says so.
    expect(comments.openClasses).toEqual([{ className: 'Comment', create: true, write: false }])

    // No password opens the imported login yet.
    await expect(Parse.User.logIn('mod', 'anything')).rejects.toMatchObject({ code: 101 })
    // The pointers resolve to the imported user.
    const found = await new Parse.Query('Comment').include('author').get('comment01')
    expect(found.get('author').get('username')).toBe('mod')

    await Parse.User.requestPasswordReset('mod@forum.test')
    const mail = await smtp.next('mod@forum.test')
    // The link names the site's public origin; this server listens on a port of its own.
    const link = /https?:\/\/\S+/.exec(mail.text)![0].replace(/^https?:\/\/[^/]+/, server.origin)
    const done = await fetch(link, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        token: new URL(link).searchParams.get('token')!,
        password: 'a new secret',
        confirm: 'a new secret',
      }).toString(),
    })
    expect(done.status).toBe(200)
    const mod = await Parse.User.logIn('mod', 'a new secret')
    expect(mod.id).toBe('modUser01')
    expect(mod.get('email')).toBe('mod@forum.test')
    // Their ACL entries hold: their own comment, and through the role they are named in the
    // role's ACL of, the role itself; then ann's comment through the role.
    found.set('text', 'welcome, edited')
    await found.save()
    const role = await new Parse.Query(Parse.Role).get('roleMods1')
    role.getUsers().add(mod)
    await role.save()
    const anns = await new Parse.Query('Comment').get('comment02')
    anns.set('text', 'moderated')
    await anns.save()
    expect(
      (await new Parse.Query('Comment').get('comment02', { useMasterKey: true })).get('text'),
    ).toBe('moderated')
    await Parse.User.logOut()
    // Ann is still waiting for her reset.
    await expect(Parse.User.logIn('ann', 'a new secret')).rejects.toMatchObject({ code: 101 })
  })
})
