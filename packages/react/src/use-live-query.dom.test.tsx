// @vitest-environment happy-dom
import { StrictMode } from 'react'
import { act, cleanup, render, screen } from '@testing-library/react'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createPortico, type Portico } from '@portico/sdk/portico'
import { createLiveSockets, wireObject } from '@portico/test-kit/live-socket'
import { createMemoryStorage } from '@portico/test-kit/memory-storage'
import { PorticoProvider } from './portico-provider.ts'
import { liveQueryOptions, useLiveQuery } from './use-live-query.ts'

// The live list against the real SDK client and Portico object; the socket class stands in for
// the server's `/api/live` and records which subscriptions are still open.

let live: ReturnType<typeof createLiveSockets>

const settle = () => act(() => new Promise((resolve) => setTimeout(resolve, 30)))

/** A real Portico client whose `backend()` waits for `release()` (the code-split load, held). */
function heldPortico(
  answer: () => object = () => ({ results: [wireObject('Note', 'a', { text: 'first' })] }),
) {
  const requests: string[] = []
  const portico = createPortico({
    serverUrl: 'http://app.test',
    appId: 'test',
    chains: [],
    storage: createMemoryStorage(),
    fetch: async (url) => {
      requests.push(url)
      return Response.json(answer())
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

function Notes({ className = 'Note' }: { className?: string }) {
  const { objects, isLoading, error } = useLiveQuery<{ text: string }>({ className })
  if (isLoading) return <p>loading</p>
  if (error) return <p>failed: {(error as { code?: string }).code}</p>
  return <p>{objects.map((o) => o.data.text).join(', ') || 'none'}</p>
}

beforeEach(() => {
  live = createLiveSockets({ refuse: 'Secret' })
  vi.stubGlobal('WebSocket', live.WebSocket)
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
    expect(live.subscriptions()).toBe(0)
    expect(live.connected()).toEqual([])
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
    expect(live.subscriptions()).toBe(1)
    view.unmount()
    await settle()
    expect(live.subscriptions()).toBe(0)
    expect(live.connected()).toEqual([])
  })
})

describe('useLiveQuery', () => {
  it('reads once subscribed, then applies creates, updates and deletes as they arrive', async () => {
    const { portico, release, requests } = heldPortico()
    render(
      <PorticoProvider portico={portico}>
        <Notes />
      </PorticoProvider>,
    )
    expect(screen.getByText('loading')).toBeTruthy()
    await release()
    expect(await screen.findByText('first')).toBeTruthy()
    // The read was made after the server confirmed the subscription.
    expect(live.sockets[0]!.sent.map((m) => m.op)).toEqual(['connect', 'subscribe'])
    expect(requests).toHaveLength(1)
    expect(new URL(requests[0]!).searchParams.get('order')).toBe('-createdAt')

    live.push('create', 'Note', wireObject('Note', 'b', { text: 'second' }))
    expect(await screen.findByText('second, first')).toBeTruthy()
    live.push('update', 'Note', wireObject('Note', 'a', { text: 'edited' }))
    expect(await screen.findByText('second, edited')).toBeTruthy()
    live.push('delete', 'Note', wireObject('Note', 'b', { text: 'second' }))
    expect(await screen.findByText('edited')).toBeTruthy()
  })

  it('shares one read and one subscription between components showing the same list', async () => {
    const { portico, release, requests } = heldPortico()
    function Two({ both }: { both: boolean }) {
      return (
        <PorticoProvider portico={portico}>
          <Notes />
          {both ? <Notes /> : null}
        </PorticoProvider>
      )
    }
    const view = render(<Two both />)
    await release()
    expect(await screen.findAllByText('first')).toHaveLength(2)
    expect(requests).toHaveLength(1)
    expect(live.subscriptions()).toBe(1)
    view.rerender(<Two both={false} />)
    await settle()
    expect(live.subscriptions()).toBe(1)
    view.unmount()
    await settle()
    expect(live.connected()).toEqual([])
  })

  it('reads again when shown again: a list nobody showed was not kept current', async () => {
    let text = 'first'
    const { portico, release, requests } = heldPortico(() => ({
      results: [wireObject('Note', 'a', { text })],
    }))
    function Toggle({ shown }: { shown: boolean }) {
      return <PorticoProvider portico={portico}>{shown ? <Notes /> : null}</PorticoProvider>
    }
    const view = render(<Toggle shown />)
    await release()
    await screen.findByText('first')
    view.rerender(<Toggle shown={false} />)
    await settle()
    text = 'changed meanwhile'
    view.rerender(<Toggle shown />)
    expect(screen.getByText('loading')).toBeTruthy()
    expect(await screen.findByText('changed meanwhile')).toBeTruthy()
    expect(requests).toHaveLength(2)
    expect(live.subscriptions()).toBe(1)
  })

  it("keeps the list in the app's QueryClient when there is one", async () => {
    const { portico, release } = heldPortico()
    const queryClient = new QueryClient()
    render(
      <QueryClientProvider client={queryClient}>
        <PorticoProvider portico={portico}>
          <Notes />
        </PorticoProvider>
      </QueryClientProvider>,
    )
    await release()
    await screen.findByText('first')
    const cached = queryClient.getQueryData(
      liveQueryOptions(portico, { className: 'Note' }).queryKey,
    )
    expect(cached?.map((note) => note.objectId)).toEqual(['a'])
  })

  it('reads again after the socket came back', async () => {
    let text = 'first'
    const { portico, release, requests } = heldPortico(() => ({
      results: [wireObject('Note', 'a', { text })],
    }))
    render(
      <PorticoProvider portico={portico}>
        <Notes />
      </PorticoProvider>,
    )
    await release()
    await screen.findByText('first')
    text = 'changed while down'
    live.drop()
    expect(await screen.findByText('changed while down', {}, { timeout: 2000 })).toBeTruthy()
    expect(requests).toHaveLength(2)
  })

  it('shows a refused subscription as the error, without reading', async () => {
    const { portico, release, requests } = heldPortico()
    render(
      <PorticoProvider portico={portico}>
        <Notes className="Secret" />
      </PorticoProvider>,
    )
    await release()
    expect(await screen.findByText('failed: invalid_query')).toBeTruthy()
    expect(requests).toEqual([])
  })
})
