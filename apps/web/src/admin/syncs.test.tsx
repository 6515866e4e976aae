// @vitest-environment happy-dom
import { useState, type ReactNode } from 'react'
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { PorticoProvider } from '@portico/react'
import { createBackendClient } from '@portico/sdk/backend'
import { createPortico } from '@portico/sdk/portico'
import { Syncs, type SyncRow } from './syncs.tsx'

// The Syncs section against a scripted API: what it shows of each sync, and what stopping a
// watch sends.

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

function scripted() {
  const sent: { method: string; path: string }[] = []
  let results = [base, watch]
  const client = createBackendClient({
    serverUrl: 'http://app.test',
    appId: 'test',
    attempts: 1,
    fetch: async (input, init) => {
      const url = new URL(input)
      const method = init.method ?? 'GET'
      sent.push({ method, path: url.pathname })
      if (method === 'DELETE') {
        results = [base]
        return new Response(null, { status: 204 })
      }
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
    expect(sent).toContainEqual({ method: 'DELETE', path: '/api/admin/watches/ItemListed' })
    await expect.poll(() => screen.queryByRole('row', { name: /^ItemListed/ })).toBeNull()
  })
})
