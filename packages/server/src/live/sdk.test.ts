import { beforeAll, describe, expect, it } from 'vitest'
import type { FastifyInstance } from 'fastify'
import WebSocket from 'ws'
import {
  createBackendClient,
  destroyObject,
  saveObject,
  subscribe,
  type BackendClient,
  type WebSocketClass,
} from '@portico/sdk/backend'
import { databaseKinds, signedIn, testApp } from '../../test/helpers.ts'

// The SDK's `subscribe` against the real server's `/api/live`.

describe.each(databaseKinds())('SDK live queries against the server on %s', (kind) => {
  let app: FastifyInstance
  let origin: string
  let alice: BackendClient
  let bob: BackendClient
  beforeAll(async () => {
    ;({ app } = await testApp(kind))
    origin = await app.listen({ host: '127.0.0.1', port: 0 })
    const client = async () =>
      createBackendClient({
        serverUrl: origin,
        appId: 'portico',
        token: (await signedIn(app)).token,
        WebSocket: WebSocket as unknown as WebSocketClass,
      })
    alice = await client()
    bob = await client()
  })

  it('tells a subscriber of creates, updates, leaves and deletes it may read, in order', async () => {
    const events: string[] = []
    const live = subscribe<{ text: string; room: string }>(
      alice,
      { className: 'Chat', where: { room: 'lobby', text: { $regex: '^hi' } } },
      { onEvent: (event, object) => events.push(`${event}:${object.data.text}`) },
    )
    await live.ready
    const hello = await saveObject(bob, {
      className: 'Chat',
      publicRead: true,
      data: { room: 'lobby', text: 'hi all' },
    })
    await saveObject(bob, { className: 'Chat', data: { room: 'lobby', text: 'hi secret' } })
    await saveObject(bob, {
      className: 'Chat',
      publicRead: true,
      data: { room: 'attic', text: 'hi' },
    })
    await saveObject(bob, { ...hello, data: { ...hello.data, text: 'hi everyone' } })
    await saveObject(bob, { ...hello, data: { ...hello.data, text: 'bye' } })
    const mine = await saveObject(alice, {
      className: 'Chat',
      data: { room: 'lobby', text: 'hi me' },
    })
    await destroyObject(alice, mine)
    await expect
      .poll(() => events)
      .toEqual(['create:hi all', 'update:hi everyone', 'leave:bye', 'create:hi me', 'delete:hi me'])
    live.unsubscribe()
  })

  it('refuses an invalid where with the query error', async () => {
    const live = subscribe(
      alice,
      { className: 'Chat', where: { text: { $nope: 1 } } },
      { onEvent: () => {} },
    )
    await expect(live.ready).rejects.toMatchObject({ code: 'invalid_query' })
  })

  it('does not use a cookie sent from another origin', async () => {
    const { token } = await signedIn(app)
    const socket = new WebSocket(`${origin.replace('http', 'ws')}/api/live`, {
      headers: { cookie: `portico_session=${token}`, origin: 'https://evil.example' },
    })
    const messages: { op: string; userId?: string | null }[] = []
    socket.on('message', (data) => messages.push(JSON.parse(String(data)) as never))
    await new Promise((resolve) => socket.once('open', resolve))
    socket.send(JSON.stringify({ op: 'connect' }))
    await expect.poll(() => messages[0]).toEqual({ op: 'connected', userId: null })
    socket.close()
  })
})

describe.each(databaseKinds())('live sockets and ended sessions on %s', (kind) => {
  it('closes a socket whose session is signed out, so private changes stop reaching it', async () => {
    const { app } = await testApp(kind, { liveSessionCheckMs: 100 })
    const origin = await app.listen({ host: '127.0.0.1', port: 0 })
    const { token, headers } = await signedIn(app)
    const socket = new WebSocket(`${origin.replace('http', 'ws')}/api/live`)
    const closed = new Promise<number>((resolve) => socket.once('close', resolve))
    const messages: string[] = []
    socket.on('message', (data) => messages.push(String(JSON.parse(String(data)).op)))
    await new Promise((resolve) => socket.once('open', resolve))
    socket.send(JSON.stringify({ op: 'connect', token }))
    socket.send(JSON.stringify({ op: 'subscribe', requestId: 1, className: 'Diary' }))
    await expect.poll(() => messages).toEqual(['connected', 'subscribed'])
    const create = (text: string) =>
      app.inject({
        method: 'POST',
        url: '/api/classes/Diary',
        headers,
        payload: { data: { text } },
      })
    await create('before')
    await expect.poll(() => messages).toEqual(['connected', 'subscribed', 'create'])
    expect(
      (await app.inject({ method: 'POST', url: '/api/auth/logout', headers })).statusCode,
    ).toBe(204)
    expect(await closed).toBe(4001)
  })
})

it('refuses a client more live sockets than LIVE_MAX_SOCKETS_PER_ADDRESS, and frees a place when one closes', async () => {
  const { app } = await testApp('pglite', { liveMaxSocketsPerAddress: 2 })
  const origin = await app.listen({ host: '127.0.0.1', port: 0 })
  const connect = () =>
    new Promise<{ socket: WebSocket; status: number }>((resolve) => {
      const socket = new WebSocket(`${origin.replace('http', 'ws')}/api/live`)
      socket.once('open', () => resolve({ socket, status: 101 }))
      socket.once('unexpected-response', (_request, response) =>
        resolve({ socket, status: response.statusCode ?? 0 }),
      )
    })
  const first = await connect()
  const second = await connect()
  expect([first.status, second.status]).toEqual([101, 101])
  expect((await connect()).status).toBe(429)
  first.socket.close()
  await new Promise((resolve) => first.socket.once('close', resolve))
  await expect.poll(async () => (await connect()).status).toBe(101)
  second.socket.close()
})
