import { createRequire } from 'node:module'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { databaseKinds } from '../../test/helpers.ts'
import { parseLogIn, type ListeningApp, type ParseSdk, parseTarget } from '../../test/compat.ts'

// A relation of an object not saved yet (a clone, as `Parse.Object#clone` makes it) is queried
// with a pointer that has no objectId: it holds no one, and saving the clone gives it its own.

const require = createRequire(import.meta.url)
const Parse = require('parse/node') as ParseSdk

describe.each(databaseKinds())('relations of a cloned object on %s', (kind) => {
  let server: ListeningApp

  beforeAll(async () => {
    server = await parseTarget(kind, Parse, 'master-key-for-the-clone-tests')
    Parse.User.enableUnsafeCurrentUser()
    await parseLogIn(Parse, privateKeyToAccount(generatePrivateKey()))
  })
  afterAll(async () => {
    await Parse.User.logOut().catch(() => {})
    await server.close()
  })

  it('queries the unsaved clone as holding no one, then keeps its members apart', async () => {
    const member = await new Parse.Object('Member').save()
    const original = await new Parse.Object('Group').save()
    original.relation('members').add(member)
    await original.save()

    const clone = original.clone()
    expect(clone.id).toBeUndefined()
    expect(await original.relation('members').query().find()).toHaveLength(1)
    expect(await clone.relation('members').query().find()).toEqual([])

    clone.relation('members').add(member)
    await clone.save()
    expect(clone.id).not.toBe(original.id)
    const members = await clone.relation('members').query().find()
    expect(members.map((found: { id: string }) => found.id)).toEqual([member.id])
    expect(await original.relation('members').query().find()).toHaveLength(1)
  })
})
