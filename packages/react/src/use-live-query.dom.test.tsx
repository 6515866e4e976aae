// @vitest-environment happy-dom
import { StrictMode } from 'react'
import { act, cleanup, render, screen } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createPortico, type Portico } from '@portico/sdk/portico'
import { createMemoryStorage } from '@portico/test-kit/memory-storage'
import { PorticoProvider } from './portico-provider.ts'
import { useLiveQuery } from './use-live-query.ts'

// The live list against the real SDK client. The socket stands in for the server's `/api/live`:
// it confirms subscriptions, pushes events, and records which subscriptions are still open.

class LiveSocket {
  static all: LiveSocket[] = []
  readyState = 0
  closed = false
  /** Request ids the client subscribed and has not unsubscribed on this socket. */
  open = new Set<number>()
  onopen: ((event: unknown) => void) | null = null
  onmessage: ((event: { data: unknown }) => void) | null = null
  onclose: ((event: unknown) => void) | null = null
  onerror: ((event: unknown) => void) | null = null
  constructor(readonly url: string) {
    LiveSocket.all.push(this)
    setTimeout(() => {
      if (this.closed) return
      this.readyState = 1
      this.onopen?.({})
    }, 0)
  }
  send(data: string) {
    const message = JSON.parse(data) as { op: string; requestId?: number }
    if (message.op === 'subscribe') {
      this.open.add(message.requestId!)
      setTimeout(() => this.reply({ op: 'subscribed', requestId: message.requestId }), 0)
    }
    if (message.op === 'unsubscribe') this.open.delete(message.requestId!)
  }
  close() {
    this.closed = true
    this.readyState = 3
    this.open.clear()
    setTimeout(() => this.onclose?.({}), 0)
  }
  reply(message: object) {
    if (!this.closed) this.onmessage?.({ data: JSON.stringify(message) })
  }
  /** Subscriptions the server would still be serving, across every socket. */
  static subscriptions(): number {
    return LiveSocket.all.reduce((sum, socket) => sum + (socket.closed ? 0 : socket.open.size), 0)
  }
}

const note = (objectId: string, text: string) => ({
  className: 'Note',
  objectId,
  owner: 'u1',
  publicRead: true,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  data: { text },
})

/** A real Portico client whose `backend()` waits for `release()` (the code-split load, held). */
function heldPortico() {
  const requests: string[] = []
  const portico = createPortico({
    serverUrl: 'http://app.test',
    appId: 'test',
    chains: [],
    storage: createMemoryStorage(),
    fetch: async (url) => {
      requests.push(url)
      return Response.json({ results: [note('a', 'first')] })
    },
  })
  let open!: () => void
  const held = new Promise<void>((resolve) => (open = resolve))
  const backend = async () => {
    await held
    return portico.backend()
  }
  /** Lets `backend()` resolve, and waits until it has (and the sockets' timers have run). */
  const release = async () => {
    open()
    await act(() => portico.backend())
    await settle()
  }
  return { portico: { ...portico, backend } satisfies Portico, release, requests }
}

function Notes() {
  const { objects, isLoading } = useLiveQuery<{ text: string }>({ className: 'Note' })
  if (isLoading) return <p>loading</p>
  return <p>{objects.map((o) => o.data.text).join(', ') || 'none'}</p>
}

const settle = () => act(() => new Promise((resolve) => setTimeout(resolve, 30)))

beforeEach(() => {
  LiveSocket.all = []
  vi.stubGlobal('WebSocket', LiveSocket)
})
afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
})

describe('useLiveQuery subscriptions', () => {
  it('opens none when the component unmounts before the backend client has loaded (StrictMode)', async () => {
    const { portico, release } = heldPortico()
    const view = render(
      <StrictMode>
        <PorticoProvider portico={portico}>
          <Notes />
        </PorticoProvider>
      </StrictMode>,
    )
    view.unmount()
    await release()
    expect(LiveSocket.subscriptions()).toBe(0)
    expect(LiveSocket.all.filter((socket) => !socket.closed)).toEqual([])
  })

  it('keeps one subscription under StrictMode while mounted, and none after unmount', async () => {
    const { portico, release } = heldPortico()
    const view = render(
      <StrictMode>
        <PorticoProvider portico={portico}>
          <Notes />
        </PorticoProvider>
      </StrictMode>,
    )
    await release()
    expect(await screen.findByText('first')).toBeTruthy()
    expect(LiveSocket.subscriptions()).toBe(1)
    view.unmount()
    await settle()
    expect(LiveSocket.subscriptions()).toBe(0)
    expect(LiveSocket.all.filter((socket) => !socket.closed)).toEqual([])
  })
})
