// @vitest-environment happy-dom
import { useState, type ReactNode } from 'react'
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { PorticoProvider } from '@portico/react'
import { createBackendClient } from '@portico/sdk/backend'
import { createPortico } from '@portico/sdk/portico'
import type { ConsoleAnswer, ConsoleIndexedAddress } from '@portico/sdk/wire'
import { Syncs, type SyncRow } from './syncs.tsx'

// The Syncs section against a scripted API: what it shows of each sync, what stopping a watch
// sends, and the address index with its pages of addresses.

afterEach(cleanup)

function Page({ children }: { children: ReactNode }) {
  const [portico] = useState(() =>
    createPortico({ serverUrl: 'http://app.test', appId: 'test', chains: [] }),
  )
  return <PorticoProvider portico={portico}>{children}</PorticoProvider>
}

const base: SyncRow = {
  name: 'token',
  kind: 'site',
  chainId: 1,
  className: 'Transfer',
  addresses: ['0x5c69bee701ef814a2b6a3edd4b1652cb9cc5aa6f'],
  events: ['Transfer'],
  filter: null,
  createdAt: null,
  writer: 'this process',
  mode: 'backfill',
  nextBlock: '100',
  head: '1099',
  blocksLeft: '1000',
  eventsPerSecond: 42,
  rows: 1234,
  lastError: 'the node did not answer',
  updatedAt: '2026-01-01T00:00:00.000Z',
}
const watch: SyncRow = {
  ...base,
  name: 'watch-ItemListed',
  kind: 'watch',
  chainId: 31337,
  className: 'ItemListed',
  events: ['ItemListed'],
  filter: { gt: ['price_decimal', '5'] },
  writer: 'another process',
  mode: null,
  eventsPerSecond: null,
  lastError: null,
}

type IndexAnswer = ConsoleAnswer<'GET /api/admin/address-index'>

/** `n` indexed addresses in order: 0x…0001, 0x…0002, … */
const indexed = (from: number, n: number): ConsoleIndexedAddress[] =>
  Array.from({ length: n }, (_, i) => ({
    chainId: 31337,
    address: `0x${(from + i).toString(16).padStart(40, '0')}`,
    source: 'user',
    nextBlock: '1201',
    status: 'SYNCED',
    createdAt: '2026-01-01T00:00:00.000Z',
  }))

const indexedChain: IndexAnswer['chains'][number] = {
  chainId: 31337,
  mode: 'following',
  writer: true,
  head: '1200',
  addresses: 1002,
  syncing: 1,
  rows: 5678,
  lastError: 'the node timed out',
}

/** The address index's pages: 1,000 addresses, then two (the second one still syncing). */
function indexPage(url: URL): IndexAnswer {
  const after = url.searchParams.get('after')
  const addresses = after
    ? indexed(1001, 2).map((row, i) =>
        i === 1
          ? { ...row, source: 'watch' as const, nextBlock: '40', status: 'SYNCING' as const }
          : row,
      )
    : indexed(1, 1000)
  return { chains: [indexedChain], addresses }
}

function scripted(index: (url: URL) => IndexAnswer = () => ({ chains: [], addresses: [] })) {
  const sent: { method: string; path: string; query: string }[] = []
  let results = [base, watch]
  const client = createBackendClient({
    serverUrl: 'http://app.test',
    appId: 'test',
    attempts: 1,
    fetch: async (input, init) => {
      const url = new URL(input)
      const method = init.method ?? 'GET'
      sent.push({ method, path: url.pathname, query: url.search })
      if (method === 'DELETE') {
        results = [base]
        return new Response(null, { status: 204 })
      }
      if (url.pathname === '/api/admin/address-index') return Response.json(index(url))
      return Response.json({ processId: 'p1', results })
    },
  })
  return { client, sent }
}

describe('the Syncs section', () => {
  it('shows each sync with its progress and its class one click away', async () => {
    const { client } = scripted()
    render(
      <Page>
        <Syncs client={client} role="viewer" />
      </Page>,
    )
    const table = await screen.findByRole('table', { name: 'Contract-event syncs' })
    const site = await within(table).findByRole('row', { name: /^Transfer/ })
    expect(site.textContent).toContain('Backfilling')
    expect(site.textContent).toContain('1000')
    expect(site.textContent).toContain('42')
    expect(site.textContent).toContain('the node did not answer')
    expect(within(site).getByRole('link', { name: 'Transfer' }).getAttribute('href')).toBe(
      '/admin/objects?class=Transfer',
    )
    const watched = within(table).getByRole('row', { name: /^ItemListed/ })
    expect(watched.textContent).toContain('Watch')
    expect(watched.textContent).toContain('ItemListed (filtered)')
    expect(watched.textContent).toContain('Written by another process')
    // Viewers change nothing.
    expect(screen.queryByRole('button', { name: /^Stop the watch/ })).toBeNull()
  })

  it('lets an admin stop a watch after confirming, and never a site sync', async () => {
    const { client, sent } = scripted()
    render(
      <Page>
        <Syncs client={client} role="admin" />
      </Page>,
    )
    const stop = await screen.findByRole('button', { name: 'Stop the watch of ItemListed' })
    expect(screen.getAllByRole('button', { name: /^Stop the watch/ })).toHaveLength(1)
    fireEvent.click(stop)
    fireEvent.click(screen.getByRole('button', { name: 'Yes, stop it' }))
    await screen.findByText('The watch of ItemListed was stopped; its rows stay.')
    expect(sent).toContainEqual({
      method: 'DELETE',
      path: '/api/admin/watches/ItemListed',
      query: '',
    })
    await expect.poll(() => screen.queryByRole('row', { name: /^ItemListed/ })).toBeNull()
  })

  it('shows each chain of the address index, and its addresses a page at a time', async () => {
    const { client, sent } = scripted(indexPage)
    render(
      <Page>
        <Syncs client={client} role="viewer" />
      </Page>,
    )
    const chains = await screen.findByRole('table', { name: 'Address index by chain' })
    const chain = await within(chains).findByRole('row', { name: /^31337/ })
    for (const shown of ['Following the head', 'this process', '1200', '1002', '5678'])
      expect(chain.textContent).toContain(shown)
    expect(chain.textContent).toContain('the node timed out')

    const addresses = await screen.findByRole('table', { name: 'Indexed addresses on chain 31337' })
    await expect.poll(() => within(addresses).getAllByRole('row')).toHaveLength(1001)
    const firstRow = within(addresses).getAllByRole('row')[1]!
    const full = `0x${'1'.padStart(40, '0')}`
    // The whole address in its title, to copy; the cell shortened.
    expect(within(firstRow).getByRole('rowheader').getAttribute('title')).toBe(full)
    expect(firstRow.textContent).toContain('A user’s wallet')
    expect(firstRow.textContent).toContain('1201')
    expect(firstRow.textContent).toContain('Synced')

    // A full page: "More" reads the next one after its last address, and adds it below.
    fireEvent.click(screen.getByRole('button', { name: 'More' }))
    await expect.poll(() => within(addresses).getAllByRole('row')).toHaveLength(1003)
    const last = `0x${(1000).toString(16).padStart(40, '0')}`
    expect(sent.filter((s) => s.path === '/api/admin/address-index').map((s) => s.query)).toEqual([
      '',
      `?chainId=31337&after=${last}`,
    ])
    const syncing = within(addresses).getAllByRole('row').at(-1)!
    expect(syncing.textContent).toContain('Watched')
    expect(syncing.textContent).toContain('Syncing')
    expect(syncing.textContent).toContain('40')
    // That page was not full: nothing more to read.
    expect(screen.queryByRole('button', { name: 'More' })).toBeNull()
  })

  it('says what to set when no address is indexed', async () => {
    const { client } = scripted()
    render(
      <Page>
        <Syncs client={client} role="viewer" />
      </Page>,
    )
    await screen.findByText(/^No address is indexed: set ADDRESS_INDEX_CHAINS/)
    expect(screen.queryByRole('table', { name: /^Indexed addresses/ })).toBeNull()
    expect(screen.queryByRole('button', { name: 'More' })).toBeNull()
  })
})
