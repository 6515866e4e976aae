import { createRequire } from 'node:module'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { databaseKinds } from '../../test/helpers.ts'
import {
  parseLogIn,
  parseSignOff,
  parseTarget,
  type ListeningApp,
  type ParseSdk,
} from '../../test/compat.ts'

// A `leave` tells a subscriber an object is no longer among what they asked for. Its object is
// what they may read of it: as it is now when they still may (it only left their `where`), else
// as it was before the change, never with what the change that hid it wrote. On the mount's
// LiveQuery (the real `parse` client) and on `/api/live`.

const require = createRequire(import.meta.url)
const Parse = require('parse/node') as ParseSdk

const MASTER = 'master-key-for-the-leave-tests'
type Account = ReturnType<typeof privateKeyToAccount>
type Found = ParseSdk

async function nativeSocket(url: string, token: string) {
  const socket = new WebSocket(url)
  const messages: Record<string, unknown>[] = []
  socket.on('message', (data) => messages.push(JSON.parse(String(data)) as Record<string, unknown>))
  await new Promise((resolve) => socket.once('open', resolve))
  socket.send(JSON.stringify({ op: 'connect', token }))
  return {
    messages,
    send: (message: unknown) => socket.send(JSON.stringify(message)),
    close: () => socket.close(),
  }
}

describe.each(databaseKinds())('live leave events on %s', (kind) => {
  let server: ListeningApp
  const [alice, carol] = Array.from({ length: 2 }, () =>
    privateKeyToAccount(generatePrivateKey()),
  ) as [Account, Account]
  const tokens = new Map<Account, string>()

  beforeAll(async () => {
    server = await parseTarget(kind, Parse, MASTER)
    Parse.User.enableUnsafeCurrentUser()
    for (const account of [carol, alice])
      tokens.set(account, (await parseLogIn(Parse, account)).getSessionToken())
  })
  afterAll(async () => {
    await parseSignOff(Parse)
    await server.close()
  })

  const asAlice = () => ({ sessionToken: tokens.get(alice) })
  const bare = (account: Account) => tokens.get(account)!.slice('r:'.length)

  it('carries the object as it was when the change hides it from the subscriber', async () => {
    const acl = new Parse.ACL(Parse.User.current())
    acl.setPublicReadAccess(true)
    const contact = await new (Parse.Object.extend('Contact'))({ name: 'Ada' })
      .setACL(acl)
      .save(null, asAlice())

    const viaParse = await new Parse.Query('Contact').subscribe(tokens.get(carol))
    const left = new Promise<Found>((resolve) => viaParse.on('leave', resolve))
    const native = await nativeSocket(
      `${server.origin.replace(/^http/, 'ws')}/api/live`,
      bare(carol),
    )
    native.send({ op: 'subscribe', requestId: 1, className: 'Contact' })
    await expect.poll(() => native.messages.some((m) => m.op === 'subscribed')).toBe(true)

    // One save makes it private and writes a phone number.
    contact.setACL(new Parse.ACL(Parse.User.current()))
    contact.set('phone', '+44 20 7946 0000')
    await contact.save(null, asAlice())

    const object = await left
    expect(object.id).toBe(contact.id)
    expect(object.get('phone')).toBeUndefined()
    expect(object.get('name')).toBe('Ada')
    await expect.poll(() => native.messages.find((m) => m.op === 'leave')).toBeDefined()
    const sent = native.messages.find((m) => m.op === 'leave')!.object as {
      objectId: string
      data: Record<string, unknown>
    }
    expect(sent.objectId).toBe(contact.id)
    expect(sent.data).toEqual({ name: 'Ada' })
    // And the subscriber may not read it now.
    await expect(
      new Parse.Query('Contact').get(contact.id, { sessionToken: tokens.get(carol) }),
    ).rejects.toMatchObject({ code: 101 })
    native.close()
    await viaParse.unsubscribe()
  })

  it('carries the object as it is now when it only left the where', async () => {
    const acl = new Parse.ACL(Parse.User.current())
    acl.setPublicReadAccess(true)
    const ticket = await new (Parse.Object.extend('Ticket'))({ status: 'open' })
      .setACL(acl)
      .save(null, asAlice())
    const viaParse = await new Parse.Query('Ticket')
      .equalTo('status', 'open')
      .subscribe(tokens.get(carol))
    const left = new Promise<Found>((resolve) => viaParse.on('leave', resolve))
    const native = await nativeSocket(
      `${server.origin.replace(/^http/, 'ws')}/api/live`,
      bare(carol),
    )
    native.send({ op: 'subscribe', requestId: 1, className: 'Ticket', where: { status: 'open' } })
    await expect.poll(() => native.messages.some((m) => m.op === 'subscribed')).toBe(true)

    ticket.set('status', 'closed')
    await ticket.save(null, asAlice())
    const object = await left
    expect(object.get('status')).toBe('closed')
    await expect
      .poll(() => native.messages.find((m) => m.op === 'leave'))
      .toMatchObject({ object: { data: { status: 'closed' } } })
    native.close()
    await viaParse.unsubscribe()
  })
})
