import { createRequire } from 'node:module'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { databaseKinds } from '../../test/helpers.ts'
import {
  parseLogIn,
  type ListeningApp,
  type ParseSdk,
  parseTarget,
  parseSignOff,
} from '../../test/compat.ts'

// Parse's LiveQuery protocol as the `parse` client speaks it beyond plain subscriptions: `watch`,
// a `Parse.LiveQueryClient` pointed at the bare host with null connect fields, and the refusal of
// a query with unknown keys after which the client reconnects and subscribes again.

const require = createRequire(import.meta.url)
const Parse = require('parse/node') as ParseSdk

const MASTER = 'master-key-for-the-live-query-tests'
type Found = { id: string; get(key: string): unknown }

describe.each(databaseKinds())('the LiveQuery protocol on %s', (kind) => {
  let server: ListeningApp
  const alice = privateKeyToAccount(generatePrivateKey())
  const bareHost = () => server.origin.replace(/^http/, 'ws')

  beforeAll(async () => {
    server = await parseTarget(kind, Parse, MASTER)
    Parse.User.enableUnsafeCurrentUser()
    await parseLogIn(Parse, alice)
  })
  afterAll(async () => {
    await parseSignOff(Parse)
    await server.close()
  })

  it('sends creates and updates only when a watched field changed', async () => {
    const query = new Parse.Query('Watched')
    query.watch('yolo')
    const subscription = await query.subscribe()
    const seen: string[] = []
    let last: () => void = () => {}
    const done = new Promise<void>((resolve) => (last = resolve))
    const note = (op: string) => (object: Found) => {
      seen.push(`${op} ${String(object.get('foo'))}/${String(object.get('yolo'))}`)
      if (object.get('yolo') === 'end') last()
    }
    subscription.on('create', note('create'))
    subscription.on('update', note('update'))
    const first = new Parse.Object('Watched', { foo: 'a' })
    await first.save() // no yolo: not sent
    await first.save({ foo: 'b', yolo: 'x' }) // sent
    const second = new Parse.Object('Watched', { foo: 'c', yolo: 'y' })
    await second.save() // sent
    await second.save({ foo: 'd' }) // yolo unchanged: not sent
    await second.save({ yolo: 'end' })
    await done
    expect(seen).toEqual(['update b/x', 'create c/y', 'update d/end'])
    await subscription.unsubscribe()
  })

  it('serves a LiveQueryClient at the bare host, with null connect fields', async () => {
    const client = new Parse.LiveQueryClient({
      applicationId: 'portico',
      serverURL: bareHost(),
      javascriptKey: null,
      masterKey: null,
      sessionToken: null,
      installationId: null,
    })
    client.open()
    try {
      const object = new Parse.Object('Pinged', { n: 1 }) // everyone reads it (the default ACL)
      await object.save()
      const query = new Parse.Query('Pinged')
      query.equalTo('objectId', object.id)
      const subscription = client.subscribe(query)
      await subscription.subscribePromise
      const updated = new Promise<Found>((resolve) => subscription.on('update', resolve))
      await object.save({ n: 2 })
      expect((await updated).get('n')).toBe(2)
    } finally {
      await client.close()
    }
  })

  it('refuses a query with unknown keys as Parse does: the client reconnects and subscribes again', async () => {
    const client = new Parse.LiveQueryClient({
      applicationId: 'portico',
      serverURL: bareHost(),
      sessionToken: null,
    })
    client.open()
    try {
      const errors: unknown[] = []
      client.on('error', (error: unknown) => errors.push(error))
      const resubscribe = vi.spyOn(client, 'resubscribe')
      await client.connectPromise
      client.socket.send(
        JSON.stringify({
          op: 'subscribe',
          requestId: 1,
          query: { className: 'Pinged', where: {}, unknownField: 'refused' },
        }),
      )
      await vi.waitFor(() => expect(resubscribe).toHaveBeenCalled(), { timeout: 5000 })
      expect(errors).toEqual(['Additional properties not allowed'])
    } finally {
      await client.close()
    }
  })
})
