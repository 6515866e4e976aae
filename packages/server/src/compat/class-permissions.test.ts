import { createRequire } from 'node:module'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { databaseKinds } from '../../test/helpers.ts'
import {
  parseLogIn,
  type ListeningApp,
  type ParseSdk,
  parseTarget,
  parseSignOff,
} from '../../test/compat.ts'
import { importFile } from '../import/parse-import.ts'

// Class-level permissions through the real `parse` client: set with `Parse.Schema` (the master
// key), then met by every caller and surface (queries, gets, counts, writes, the `/api` routes,
// live queries), with roles, pointer permissions and protected fields; kept from an import's
// `_SCHEMA` rows and edited in the console's object browser.

const require = createRequire(import.meta.url)
const Parse = require('parse/node') as ParseSdk

const MASTER = 'master-key-for-the-permission-tests'
type Account = ReturnType<typeof privateKeyToAccount>
type Found = ParseSdk

describe.each(databaseKinds())('class-level permissions through the parse SDK on %s', (kind) => {
  let server: ListeningApp
  const [alice, bob, carol] = Array.from({ length: 3 }, () =>
    privateKeyToAccount(generatePrivateKey()),
  ) as [Account, Account, Account]
  const ids = new Map<Account, string>()
  const tokens = new Map<Account, string>()

  async function as(account: Account) {
    const user = await parseLogIn(Parse, account)
    ids.set(account, user.id)
    tokens.set(account, user.getSessionToken())
    return user
  }
  const pointer = (account: Account) => ({
    __type: 'Pointer',
    className: '_User',
    objectId: ids.get(account)!,
  })
  const master = { useMasterKey: true }
  const publicAcl = () => {
    const acl = new Parse.ACL()
    acl.setPublicReadAccess(true)
    acl.setPublicWriteAccess(true)
    return acl
  }

  beforeAll(async () => {
    server = await parseTarget(kind, Parse, MASTER)
    Parse.User.enableUnsafeCurrentUser()
    for (const account of [carol, bob, alice]) await as(account)
  })
  afterAll(async () => {
    await parseSignOff(Parse)
    await server.close()
  })

  it('lets only the users and roles a class names find, count and create, and hides protected fields', async () => {
    await as(alice)
    const staff = new Parse.Role(`Staff${Date.now()}`, new Parse.ACL(Parse.User.current()))
    staff.getUsers().add(Parse.User.createWithoutData(ids.get(carol)))
    await staff.save()
    const Ledger = Parse.Object.extend('Ledger')
    for (const n of [1, 2])
      await new Ledger({ n, secret: `s${n}` }).setACL(publicAcl()).save(null, master)

    const schema = new Parse.Schema('Ledger')
    schema.setCLP({
      find: { [ids.get(bob)!]: true, [`role:${staff.getName()}`]: true },
      get: { requiresAuthentication: true },
      count: { [`role:${staff.getName()}`]: true },
      create: { [`role:${staff.getName()}`]: true },
      update: { '*': true },
      delete: {},
      addField: {},
      protectedFields: { '*': ['secret'], [`role:${staff.getName()}`]: [] },
    })
    await schema.update()
    const read = await new Parse.Schema('Ledger').get()
    expect(read.classLevelPermissions.delete).toEqual({})
    expect(read.fields.n).toEqual({ type: 'Number' })

    // alice is named nowhere: her find and count are refused, a get is hers (signed in).
    await as(alice)
    await expect(new Parse.Query('Ledger').find()).rejects.toMatchObject({ code: 119 })
    await expect(new Parse.Query('Ledger').count()).rejects.toMatchObject({ code: 119 })
    await expect(new Ledger({ n: 3 }).save()).rejects.toMatchObject({ code: 119 })
    const any = (await new Parse.Query('Ledger').find(master))[0] as Found
    const got = (await new Parse.Query('Ledger').get(any.id)) as Found
    expect(got.get('secret')).toBeUndefined()
    await expect(got.destroy()).rejects.toMatchObject({ code: 119 })

    // bob finds (without the protected field) but does not count; carol, in the role, does all.
    await as(bob)
    const bobs = (await new Parse.Query('Ledger').ascending('n').find()) as Found[]
    expect(bobs.map((o) => [o.get('n'), o.get('secret')])).toEqual([
      [1, undefined],
      [2, undefined],
    ])
    await expect(new Parse.Query('Ledger').count()).rejects.toMatchObject({ code: 119 })
    await as(carol)
    expect(await new Parse.Query('Ledger').count()).toBe(2)
    const carols = (await new Parse.Query('Ledger').ascending('n').find()) as Found[]
    expect(carols.map((o) => o.get('secret'))).toEqual(['s1', 's2'])
    // addField names no one: an existing field may be written, a new one may not.
    carols[0]!.set('n', 10)
    await carols[0]!.save()
    carols[0]!.set('brandNew', true)
    await expect(carols[0]!.save()).rejects.toMatchObject({ code: 119 })
    await new Ledger({ n: 4 }).setACL(publicAcl()).save()

    // Signed out: the get needs a sign-in (Parse's 101), the find is refused.
    await Parse.User.logOut()
    await expect(new Parse.Query('Ledger').get(any.id)).rejects.toMatchObject({ code: 101 })
    await expect(new Parse.Query('Ledger').find()).rejects.toMatchObject({ code: 119 })

    // The same rule on Portico's own routes: they share the object store.
    const viaApi = await server.app.inject({
      url: '/api/classes/Ledger',
      headers: { authorization: `Bearer ${tokens.get(alice)}` },
    })
    expect(viaApi.statusCode).toBe(403)
    // The master key passes.
    expect(await new Parse.Query('Ledger').count(master)).toBe(3)
  })

  it('lets a class limit reads and writes to the users its pointer fields name', async () => {
    await as(alice)
    const Diary = Parse.Object.extend('Diary')
    await new Diary({ text: 'alice', author: pointer(alice) })
      .setACL(publicAcl())
      .save(null, master)
    await new Diary({ text: 'bob', author: pointer(bob), editors: [pointer(alice)] })
      .setACL(publicAcl())
      .save(null, master)
    const schema = new Parse.Schema('Diary')
    schema.setCLP({
      find: {},
      get: {},
      count: {},
      create: {},
      update: { pointerFields: ['editors'] },
      delete: {},
      readUserFields: ['author', 'editors'],
      writeUserFields: ['author'],
    })
    await schema.update()

    const texts = async () =>
      ((await new Parse.Query('Diary').find()) as Found[]).map((o) => o.get('text')).sort()
    await as(alice)
    expect(await texts()).toEqual(['alice', 'bob'])
    await as(bob)
    expect(await texts()).toEqual(['bob'])
    await as(carol)
    expect(await texts()).toEqual([])
    await Parse.User.logOut()
    expect(await texts()).toEqual([])

    // alice edits bob's diary (an editor) and her own (the author); bob cannot delete hers.
    await as(alice)
    for (const diary of (await new Parse.Query('Diary').find()) as Found[]) {
      diary.set('text', `${String(diary.get('text'))} edited`)
      await (diary as unknown as { save(): Promise<void> }).save()
    }
    await as(bob)
    const hers = (await new Parse.Query('Diary').equalTo('text', 'alice edited').find(master))[0]
    await expect(hers.destroy()).rejects.toMatchObject({ code: 101 })
    expect(await texts()).toEqual(['bob edited'])
  })

  it('sends live events only to subscribers the class lets find', async () => {
    const schema = new Parse.Schema('Notice')
    schema.setCLP({
      find: { [ids.get(bob)!]: true },
      get: { '*': true },
      create: {},
      protectedFields: { '*': ['secret'] },
    })
    await schema.save()
    const events: string[] = []
    await as(alice)
    const refused = await new Parse.Query('Notice').subscribe()
    refused.on('create', () => events.push('alice'))
    await as(bob)
    const allowed = await new Parse.Query('Notice').subscribe(tokens.get(bob))
    const arrived = new Promise<void>((resolve) =>
      allowed.on('create', (object: Found) => {
        events.push(`bob:${object.get('text')}:${object.get('secret')}`)
        resolve()
      }),
    )
    await new (Parse.Object.extend('Notice'))({ text: 'hi', secret: 'x' })
      .setACL(publicAcl())
      .save(null, master)
    await arrived
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(events).toEqual(['bob:hi:undefined'])
    await refused.unsubscribe()
    await allowed.unsubscribe()
  })

  it('closes the operations a partial set leaves out to all but the master key, as Parse does', async () => {
    const Memo = Parse.Object.extend('Memo')
    const kept = await new Memo({ text: 'kept' }).setACL(publicAcl()).save(null, master)
    const schema = new Parse.Schema('Memo')
    schema.setCLP({ find: { '*': true }, get: { requiresAuthentication: true } })
    await schema.update()
    // The schema answers every operation, those left out as {} (Parse's answer).
    const read = await new Parse.Schema('Memo').get()
    expect(read.classLevelPermissions).toEqual({
      find: { '*': true },
      get: { requiresAuthentication: true },
      count: {},
      create: {},
      update: {},
      delete: {},
      addField: {},
      protectedFields: {},
    })

    await as(alice)
    expect(((await new Parse.Query('Memo').find()) as Found[]).length).toBe(1)
    const mine = (await new Parse.Query('Memo').get(kept.id)) as Found
    await expect(new Parse.Query('Memo').count()).rejects.toMatchObject({ code: 119 })
    await expect(new Memo({ text: 'new' }).setACL(publicAcl()).save()).rejects.toMatchObject({
      code: 119,
    })
    mine.set('text', 'changed')
    await expect(mine.save()).rejects.toMatchObject({ code: 119 })
    await expect(mine.destroy()).rejects.toMatchObject({ code: 119 })

    // The master key passes every one of them.
    expect(await new Parse.Query('Memo').count(master)).toBe(1)
    const made = await new Memo({ text: 'by master' }).setACL(publicAcl()).save(null, master)
    mine.set('text', 'changed')
    await mine.save(null, master)
    await made.destroy(master)
    expect(
      ((await new Parse.Query('Memo').find(master)) as Found[]).map((o) => o.get('text')),
    ).toEqual(['changed'])

    // An empty set closes them all; a class with none stored is open again.
    schema.setCLP({})
    const emptied = await schema.update()
    expect(emptied.classLevelPermissions.find).toEqual({})
    await expect(new Parse.Query('Memo').find()).rejects.toMatchObject({ code: 119 })
    const answer = await fetch(`${server.serverUrl}/schemas/Memo`, {
      method: 'PUT',
      headers: {
        'content-type': 'application/json',
        'x-parse-application-id': 'portico',
        'x-parse-master-key': MASTER,
      },
      body: JSON.stringify({ classLevelPermissions: null }),
    })
    expect(
      ((await answer.json()) as { classLevelPermissions: unknown }).classLevelPermissions,
    ).toMatchObject({ find: { '*': true }, create: { '*': true } })
    expect(((await new Parse.Query('Memo').find()) as Found[]).length).toBe(1)
  })

  it('refuses permissions that are not Parse permissions, and schema changes without the master key', async () => {
    const answer = await fetch(`${server.serverUrl}/schemas/Ledger`, {
      method: 'PUT',
      headers: {
        'content-type': 'application/json',
        'x-parse-application-id': 'portico',
        'x-parse-master-key': MASTER,
      },
      body: JSON.stringify({ classLevelPermissions: { find: { '*': 'yes' } } }),
    })
    expect(answer.status).toBe(400)
    expect(await answer.json()).toMatchObject({ code: 107 })
    const anonymous = await fetch(`${server.serverUrl}/schemas/Ledger`, {
      headers: { 'x-parse-application-id': 'portico' },
    })
    expect(await anonymous.json()).toMatchObject({ code: 119 })
  })

  it("keeps an import's _SCHEMA permissions, and the console edits them", async () => {
    const { database, objects } = server.app.services
    const report = await importFile(database.db, objects, {
      name: '_SCHEMA.json',
      text: JSON.stringify([
        {
          className: 'Imported',
          fields: { title: { type: 'String' } },
          classLevelPermissions: { find: {}, get: {}, create: {} },
        },
        { _id: 'Legacy', title: 'string', _metadata: { class_permissions: { find: {} } } },
      ]),
    })
    expect(report.refused).toEqual([])
    await new (Parse.Object.extend('Imported'))({ title: 't' })
      .setACL(publicAcl())
      .save(null, master)
    await as(alice)
    await expect(new Parse.Query('Imported').find()).rejects.toMatchObject({ code: 119 })
    await expect(new Parse.Query('Legacy').find()).rejects.toMatchObject({ code: 119 })

    // The console (an admin) edits the class's permissions as an object of `_SCHEMA`.
    const stored = await objects.readAsServer({ className: '_SCHEMA', objectId: 'Imported' })
    await objects.update({
      className: '_SCHEMA',
      objectId: 'Imported',
      userId: (await import('../objects/access.ts')).ANY_OWNER,
      data: {
        classLevelPermissions: {
          ...(stored!.data.classLevelPermissions as object),
          find: { '*': true },
        },
      },
    })
    expect(((await new Parse.Query('Imported').find()) as Found[]).length).toBe(1)
  })
})
