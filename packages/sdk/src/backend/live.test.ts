import { describe, expect, it } from 'vitest'
import { createLiveSockets, wireObject } from '@portico/test-kit/live-socket'
import type { WebSocketClass } from './client.ts'
import { createBackendClient } from './client.ts'
import { subscribe } from './live.ts'

const settle = (ms = 10) => new Promise((resolve) => setTimeout(resolve, ms))

function clientWith(live: ReturnType<typeof createLiveSockets>, token?: string) {
  return createBackendClient({
    serverUrl: 'http://app.test/base',
    appId: 'test',
    token,
    WebSocket: live.WebSocket as unknown as WebSocketClass,
  })
}

describe('subscribe and the client’s live connection', () => {
  it('carries every subscription of a client on one socket, and each client on its own', async () => {
    const live = createLiveSockets()
    const alice = clientWith(live, 'alice-token')
    const bob = clientWith(live)
    const notes = subscribe(alice, { className: 'Note' }, { onEvent: () => {} })
    const chats = subscribe(
      alice,
      { className: 'Chat', where: { room: 'lobby' } },
      {
        onEvent: () => {},
      },
    )
    const other = subscribe(bob, { className: 'Note' }, { onEvent: () => {} })
    await Promise.all([notes.ready, chats.ready, other.ready])
    expect(live.sockets.map((socket) => socket.url)).toEqual([
      'ws://app.test/base/api/live',
      'ws://app.test/base/api/live',
    ])
    const [mine, theirs] = live.sockets
    expect(mine!.sent.map((m) => m.op)).toEqual(['connect', 'subscribe', 'subscribe'])
    expect(mine!.sent[0]).toEqual({ op: 'connect', token: 'alice-token' })
    expect(mine!.sent[2]).toMatchObject({ className: 'Chat', where: { room: 'lobby' } })
    expect(theirs!.sent[0]).toEqual({ op: 'connect' })
    expect(live.subscriptions()).toBe(3)

    notes.unsubscribe()
    expect(live.subscriptions()).toBe(2)
    expect(mine!.closed).toBe(false)
    chats.unsubscribe()
    // The last subscription of a client closes its socket; the other client's stays.
    expect(mine!.closed).toBe(true)
    expect(live.connected()).toEqual([theirs])
    other.unsubscribe()
    expect(live.connected()).toEqual([])
  })

  it('hands pushed changes to the subscription as saved objects', async () => {
    const live = createLiveSockets()
    const client = clientWith(live)
    const events: string[] = []
    const notes = subscribe<{ text: string }>(
      client,
      { className: 'Note' },
      {
        onEvent: (event, note) =>
          events.push(`${event}:${note.data.text}:${note.createdAt.toISOString()}`),
      },
    )
    await notes.ready
    live.push('create', 'Note', wireObject('Note', 'n1', { text: 'hello' }))
    await settle()
    expect(events).toEqual(['create:hello:2026-01-01T00:00:00.000Z'])
    notes.unsubscribe()
  })

  it('closes every subscription and the socket with the client; it can subscribe again later', async () => {
    const live = createLiveSockets()
    const client = clientWith(live)
    const a = subscribe(client, { className: 'Note' }, { onEvent: () => {} })
    const b = subscribe(client, { className: 'Chat' }, { onEvent: () => {} })
    await Promise.all([a.ready, b.ready])
    client.close()
    expect(live.connected()).toEqual([])
    expect(live.subscriptions()).toBe(0)
    const again = subscribe(client, { className: 'Note' }, { onEvent: () => {} })
    await again.ready
    expect(live.sockets).toHaveLength(2)
    expect(live.subscriptions()).toBe(1)
    again.unsubscribe()
    expect(live.connected()).toEqual([])
  })

  it('rejects a refused subscription and tells onError; ending it closes the socket', async () => {
    const live = createLiveSockets({ refuse: 'Secret' })
    const client = clientWith(live)
    const errors: string[] = []
    const refused = subscribe(
      client,
      { className: 'Secret' },
      { onEvent: () => {}, onError: (error) => errors.push(error.code) },
    )
    await expect(refused.ready).rejects.toMatchObject({ code: 'invalid_query', status: 400 })
    expect(errors).toEqual(['invalid_query'])
    refused.unsubscribe()
    expect(live.connected()).toEqual([])
  })

  it('opens the socket again after a drop, subscribes again and says so', async () => {
    const live = createLiveSockets()
    const client = clientWith(live)
    let reconnects = 0
    const notes = subscribe(
      client,
      { className: 'Note' },
      { onEvent: () => {}, onReconnect: () => reconnects++ },
    )
    await notes.ready
    live.drop()
    // The first backoff step is at most 250 ms.
    await expect.poll(() => live.subscriptions(), { timeout: 2000 }).toBe(1)
    expect(live.sockets).toHaveLength(2)
    expect(reconnects).toBe(1)
    notes.unsubscribe()
    expect(live.connected()).toEqual([])
  })

  it('needs a WebSocket class', () => {
    const client = createBackendClient({ serverUrl: 'http://app.test', appId: 'test' })
    if (client.WebSocket) return // Node 22+ has one built in.
    expect(() => subscribe(client, { className: 'Note' }, { onEvent: () => {} })).toThrow(
      /Live queries need a WebSocket class/,
    )
  })
})
