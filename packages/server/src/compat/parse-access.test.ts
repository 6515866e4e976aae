import { createRequire } from 'node:module'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { databaseKinds } from '../../test/helpers.ts'
import { sql } from 'drizzle-orm'
import { rowsOf } from '../db/client.ts'
import {
  listeningApp,
  parseLogIn,
  type ListeningApp,
  type ParseSdk,
  parseSignOff,
} from '../../test/compat.ts'

// Parse's whole access model through the real `parse` client: ACLs naming several users and
// roles, role inheritance, the master key, relations, and the ways around an ACL a client might
// try (include, $relatedTo, counts, live queries, writing a role or an ACL it may not write).

const require = createRequire(import.meta.url)
const Parse = require('parse/node') as ParseSdk

const MASTER = 'master-key-for-the-access-tests'
const masterSettings = (ips: string[]) => ({
  mount: '/server',
  legacySignIn: true,
  masterKey: MASTER,
  masterKeyIps: ips,
})

type Account = ReturnType<typeof privateKeyToAccount>
type Found = { id: string; get(key: string): unknown }

const texts = (objects: Found[]) => objects.map((o) => o.get('text')).sort()

describe.each(databaseKinds())('the Parse access model through the parse SDK on %s', (kind) => {
  let server: ListeningApp
  const [alice, bob, carol, dave, erin] = Array.from({ length: 5 }, () =>
    privateKeyToAccount(generatePrivateKey()),
  ) as [Account, Account, Account, Account, Account]
  const ids = new Map<Account, string>()

  async function as(account: Account) {
    const user = await parseLogIn(Parse, account)
    ids.set(account, user.id)
    return user
  }

  beforeAll(async () => {
    server = await listeningApp(kind, { compat: masterSettings(['127.0.0.1/8', '::1/128']) })
    Parse.initialize('portico', undefined, MASTER)
    Parse.serverURL = server.serverUrl
    Parse.liveQueryServerURL = server.serverUrl.replace(/^http/, 'ws')
    Parse.User.enableUnsafeCurrentUser()
    for (const account of [erin, dave, carol, bob, alice]) await as(account)
  })
  afterAll(async () => {
    await parseSignOff(Parse)
    await server.close()
  })

  /** Roles made by alice: Staff holds carol; Crew holds the members of Staff (and, a cycle, Staff holds Crew). */
  async function roles() {
    const owner = await as(alice)
    const aclOf = () => {
      const acl = new Parse.ACL(owner)
      acl.setPublicReadAccess(true)
      return acl
    }
    const staff = new Parse.Role(`Staff${Date.now()}`, aclOf())
    staff.getUsers().add(Parse.User.createWithoutData(ids.get(carol)))
    await staff.save()
    const crew = new Parse.Role(`Crew${Date.now()}`, aclOf())
    crew.getRoles().add(staff)
    await crew.save()
    staff.getRoles().add(crew)
    await staff.save()
    return { staff, crew }
  }

  it('lets the users and role members an ACL names read and write, and no one else', async () => {
    const { staff, crew } = await roles()
    const Memo = Parse.Object.extend('Memo')
    const memo = new Memo({ text: 'shared' })
    const acl = new Parse.ACL()
    acl.setReadAccess(ids.get(alice), true)
    acl.setWriteAccess(ids.get(alice), true)
    acl.setReadAccess(ids.get(bob), true)
    acl.setRoleReadAccess(crew, true)
    acl.setRoleWriteAccess(staff, true)
    memo.setACL(acl)
    await memo.save()
    await new Memo({ text: 'alice only' }).setACL(new Parse.ACL(await as(alice))).save()

    await as(bob)
    expect(texts(await new Parse.Query('Memo').find())).toEqual(['shared'])
    const bobsCopy = await new Parse.Query('Memo').get(memo.id)
    bobsCopy.set('text', 'bob was here')
    await expect(bobsCopy.save()).rejects.toMatchObject({ code: 101 })

    // carol is in Staff, and so in Crew: she reads through Crew and writes through Staff.
    await as(carol)
    const carolsCopy = await new Parse.Query('Memo').get(memo.id)
    carolsCopy.set('text', 'edited by staff')
    await carolsCopy.save()

    await as(dave)
    expect(await new Parse.Query('Memo').find()).toEqual([])
    expect(await new Parse.Query('Memo').count()).toBe(0)
    await expect(new Parse.Query('Memo').get(memo.id)).rejects.toMatchObject({ code: 101 })

    await as(alice)
    const stored = await new Parse.Query('Memo').get(memo.id)
    expect(stored.get('text')).toBe('edited by staff')
    expect(stored.getACL().toJSON()).toEqual({
      [ids.get(alice)!]: { read: true, write: true },
      [ids.get(bob)!]: { read: true },
      [`role:${crew.getName()}`]: { read: true },
      [`role:${staff.getName()}`]: { write: true },
    })
  })

  it('counts a role change from the next request on', async () => {
    const { staff } = await roles()
    const Badge = Parse.Object.extend('Badge')
    const acl = new Parse.ACL()
    acl.setRoleReadAccess(staff, true)
    await new Badge({ text: 'staff badge' }).setACL(acl).save()
    await as(dave)
    expect(await new Parse.Query('Badge').count()).toBe(0)
    await as(alice)
    staff.getUsers().add(Parse.User.createWithoutData(ids.get(dave)))
    await staff.save()
    await as(dave)
    expect(texts(await new Parse.Query('Badge').find())).toEqual(['staff badge'])
    await as(alice)
    staff.getUsers().remove(Parse.User.createWithoutData(ids.get(dave)))
    await staff.save()
    await as(dave)
    expect(await new Parse.Query('Badge').count()).toBe(0)
  })

  it('refuses a user who adds themselves to a role, or changes an ACL, they may not write', async () => {
    const { staff } = await roles()
    await as(dave)
    const theirs = await new Parse.Query(Parse.Role).get(staff.id)
    theirs.getUsers().add(Parse.User.current())
    await expect(theirs.save()).rejects.toMatchObject({ code: 101 })
    // Users are private to themselves: the role's members are read with the master key.
    expect(await theirs.getUsers().query().find()).toEqual([])
    const usersOfStaff = await theirs.getUsers().query().find({ useMasterKey: true })
    expect(usersOfStaff.map((u: Found) => u.id)).toEqual([ids.get(carol)])

    await as(alice)
    const Notice = Parse.Object.extend('Notice')
    const notice = new Notice({ text: 'read only for others' })
    const acl = new Parse.ACL(Parse.User.current())
    acl.setPublicReadAccess(true)
    await notice.setACL(acl).save()
    await as(dave)
    const daves = await new Parse.Query('Notice').get(notice.id)
    daves.setACL(new Parse.ACL(Parse.User.current()))
    await expect(daves.save()).rejects.toMatchObject({ code: 101 })
    await expect(
      new Parse.Role(staff.getName(), new Parse.ACL(Parse.User.current())).save(),
    ).rejects.toMatchObject({ code: 137 })
    // With members too: nothing of it is written.
    const copy = new Parse.Role(staff.getName(), new Parse.ACL(Parse.User.current()))
    copy.getUsers().add(Parse.User.current())
    await expect(copy.save()).rejects.toMatchObject({ code: 137 })
    const memberships = await server.app.services.database.db.execute(
      sql`select count(*)::int as n from object_relations where related_id = ${ids.get(dave)!}`,
    )
    expect(rowsOf<{ n: number }>(memberships)[0]?.n).toBe(0)
  })

  it('keeps what an ACL hides out of include, $relatedTo and counts', async () => {
    await as(alice)
    const Doc = Parse.Object.extend('Doc')
    const hidden = await new Doc({ text: 'hidden' })
      .setACL(new Parse.ACL(Parse.User.current()))
      .save()
    const open = new Doc({ text: 'open' })
    const openAcl = new Parse.ACL(Parse.User.current())
    openAcl.setPublicReadAccess(true)
    await open.setACL(openAcl).save()
    const Folder = Parse.Object.extend('Folder')
    const folder = new Folder({ text: 'folder', first: hidden, second: open })
    folder.relation('docs').add([hidden, open])
    const folderAcl = new Parse.ACL(Parse.User.current())
    folderAcl.setPublicReadAccess(true)
    await folder.setACL(folderAcl).save()

    await as(bob)
    const query = new Parse.Query('Folder').include('first').include('second')
    const seen = await query.get(folder.id)
    expect(seen.get('second').get('text')).toBe('open')
    // A pointer to what bob may not read stays a bare pointer: no field of it comes through.
    expect(seen.get('first').id).toBe(hidden.id)
    expect(seen.get('first').get('text')).toBeUndefined()
    const members = await seen.relation('docs').query().find()
    expect(texts(members)).toEqual(['open'])
    expect(await seen.relation('docs').query().count()).toBe(1)
    expect(await new Parse.Query('Doc').count()).toBe(1)
    // $inQuery reads its inner class as bob: what the ACL hides selects nothing.
    const inner = new Parse.Query('Doc').equalTo('text', 'hidden')
    expect(await new Parse.Query('Folder').matchesQuery('first', inner).find()).toEqual([])
    expect(await new Parse.Query('Folder').doesNotMatchQuery('first', inner).count()).toBe(1)

    await as(alice)
    expect(await new Parse.Query('Folder').matchesQuery('first', inner).count()).toBe(1)
    const mine = await new Parse.Query('Folder').get(folder.id)
    expect(texts(await mine.relation('docs').query().find())).toEqual(['hidden', 'open'])
    mine.relation('docs').remove(open)
    await mine.save()
    expect(texts(await mine.relation('docs').query().find())).toEqual(['hidden'])
  })

  it('reads and writes everything with the master key, and nothing else does', async () => {
    await as(alice)
    const Vault = Parse.Object.extend('Vault')
    const locked = await new Vault({ text: 'master only' }).setACL(new Parse.ACL()).save()
    expect(await new Parse.Query('Vault').count()).toBe(0)
    await Parse.User.logOut()
    // The same page asked by a visitor, the master key, and a visitor again: each its own
    // compiled statement.
    expect(await new Parse.Query('Vault').find()).toEqual([])
    const found = await new Parse.Query('Vault').find({ useMasterKey: true })
    expect(texts(found)).toEqual(['master only'])
    expect(await new Parse.Query('Vault').find()).toEqual([])
    found[0].set('text', 'changed by the master key')
    await found[0].save(null, { useMasterKey: true })
    const made = await new Vault({ text: 'made by the master key' }).save(null, {
      useMasterKey: true,
    })
    const madeAcl = (await new Parse.Query('Vault').get(made.id, { useMasterKey: true })).getACL()
    // Saved without an ACL: Parse's default, everyone reads and writes it.
    expect(madeAcl.toJSON()).toEqual({ '*': { read: true, write: true } })
    const stored = await new Parse.Query('Vault').get(locked.id, { useMasterKey: true })
    expect(stored.get('text')).toBe('changed by the master key')
    const audit = await server.app.services.audit.list({ limit: 10 })
    expect(
      audit
        .filter((entry) => entry.actor.startsWith('master key'))
        .map((e) => [e.action, e.target]),
    ).toEqual([
      ['object.create', `Vault/${made.id}`],
      ['object.update', `Vault/${locked.id}`],
    ])
    // The create's entry holds the object as written.
    expect(audit.find((entry) => entry.action === 'object.create')?.after).toMatchObject({
      objectId: made.id,
      className: 'Vault',
      data: { text: 'made by the master key' },
    })

    const wrong = Parse.masterKey
    Parse.masterKey = `${MASTER}-wrong`
    await expect(new Parse.Query('Vault').find({ useMasterKey: true })).rejects.toMatchObject({
      code: 119,
      message: 'unauthorized: master key is not valid.',
    })
    Parse.masterKey = wrong
  })

  it('gives a live subscriber the objects its roles let it read', async () => {
    const { crew } = await roles()
    await as(carol)
    const subscription = await new Parse.Query('Bulletin').subscribe()
    const created: string[] = []
    const arrived = new Promise<void>((resolve) =>
      subscription.on('create', (object: Found) => {
        created.push(String(object.get('text')))
        if (object.get('text') === 'for the crew') resolve()
      }),
    )
    // Made by the master key over REST, so the subscriber's own client stays signed in.
    const post = (text: string, ACL: object) =>
      fetch(`${server.serverUrl}/classes/Bulletin`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-parse-application-id': 'portico',
          'x-parse-master-key': MASTER,
        },
        body: JSON.stringify({ text, ACL }),
      }).then((answer) => expect(answer.status).toBe(201))
    await post('for dave', { [ids.get(dave)!]: { read: true } })
    await post('for the crew', { [`role:${crew.getName()}`]: { read: true } })
    await arrived
    expect(created).toEqual(['for the crew'])
    await subscription.unsubscribe()
  })
})

describe.each(databaseKinds())('the master key from another address on %s', (kind) => {
  let server: ListeningApp
  beforeAll(async () => {
    server = await listeningApp(kind, { compat: masterSettings(['10.0.0.0/8']) })
  })
  afterAll(() => server.close())

  it('is refused, with what to do, and the call has no effect', async () => {
    const answer = await fetch(`${server.serverUrl}/classes/Vault`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-parse-application-id': 'portico',
        'x-parse-master-key': MASTER,
      },
      body: JSON.stringify({ text: 'should not exist' }),
    })
    expect(answer.status).toBe(400)
    expect(await answer.json()).toEqual({
      code: 119,
      error:
        'unauthorized: master key is not accepted from 127.0.0.1: add the address to MASTER_KEY_IPS, or run the call on the server.',
    })
    expect((await server.app.services.objects.countByClass()).map((c) => c.className)).toEqual([])
  })
})
