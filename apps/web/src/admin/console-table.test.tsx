// @vitest-environment happy-dom
import { useState, type ReactNode } from 'react'
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { PorticoProvider } from '@portico/react'
import { createBackendClient } from '@portico/sdk/backend'
import { createPortico } from '@portico/sdk/portico'
import { ConsoleTable } from './console-table.tsx'
import type { Loaded } from './use-admin.ts'
import { Users } from './users.tsx'

afterEach(cleanup)

function Page({ children }: { children: ReactNode }) {
  const [portico] = useState(() =>
    createPortico({ serverUrl: 'http://app.test', appId: 'test', chains: [] }),
  )
  return <PorticoProvider portico={portico}>{children}</PorticoProvider>
}

const rows = [
  { name: 'PORT', value: '3000' },
  { name: 'HOST', value: '0.0.0.0' },
]

describe('ConsoleTable', () => {
  it('shows the rows once loaded, under their caption and headers', () => {
    render(
      <ConsoleTable
        state={{ status: 'ready', data: { results: rows } }}
        rows={(data) => data.results}
        rowKey={(row) => row.name}
        caption="Effective settings"
        columns={[
          { header: 'Variable', rowHeader: true, className: 'mono', cell: (row) => row.name },
          { header: 'Value', numeric: true, title: (row) => row.name, cell: (row) => row.value },
          {
            header: 'Actions',
            headerHidden: true,
            cell: () => <button type="button">Edit</button>,
          },
        ]}
        pager={() => ({ skip: 0, size: 2, count: 3, onSkip: () => {} })}
      />,
    )
    const table = screen.getByRole('table', { name: 'Effective settings' })
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Variable', 'Value', 'Actions'])
    expect(within(table).getByText('Actions').className).toBe('visually-hidden')
    expect(within(table).getByRole('rowheader', { name: 'PORT' }).className).toBe('mono')
    const value = within(table).getByText('3000')
    expect([value.className, value.title]).toEqual(['numeric', 'PORT'])
    expect(screen.getByRole('region', { name: 'Table, scrolls sideways' })).toBeTruthy()
    expect(screen.getByRole('button', { name: 'Previous page' })).toHaveProperty('disabled', true)
    expect(screen.getByRole('button', { name: 'Next page' })).toHaveProperty('disabled', false)
  })

  it('says why there are no rows: the error, or the empty text', () => {
    const table = (state: Loaded<{ results: typeof rows }>) => (
      <ConsoleTable
        state={state}
        rows={(data) => data.results}
        rowKey={(row) => row.name}
        caption="Files"
        empty="No files yet."
        columns={[{ header: 'Name', cell: (row) => row.name }]}
      />
    )
    const view = render(table({ status: 'loading' }))
    expect(screen.getByRole('table', { name: 'Files' }).querySelectorAll('tbody tr')).toHaveLength(
      0,
    )
    expect(screen.queryByText('No files yet.')).toBeNull()
    view.rerender(
      table({ status: 'error', error: new Error('x'), message: 'Database unavailable' }),
    )
    expect(screen.getByRole('alert').textContent).toBe('Database unavailable')
    view.rerender(table({ status: 'ready', data: { results: [] } }))
    expect(screen.getByText('No files yet.')).toBeTruthy()
    // A sentence, not a table of headers alone.
    expect(screen.queryByRole('table')).toBeNull()
    expect(screen.queryByRole('alert')).toBeNull()
  })
})

describe('a console section', () => {
  it('asks the API, and keeps the last answer shown while it asks again', async () => {
    const urls: URL[] = []
    let answer: (url: URL) => Promise<Response> = async () =>
      Response.json({
        results: [
          {
            id: 'u1',
            address: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
            firstSignInAt: '2026-01-01T00:00:00.000Z',
            lastSignInAt: '2026-01-02T00:00:00.000Z',
            activeSessions: 2,
            lastSeenAt: null,
          },
        ],
      })
    const client = createBackendClient({
      serverUrl: 'http://app.test',
      appId: 'test',
      attempts: 1,
      fetch: async (url) => {
        urls.push(new URL(url))
        return answer(new URL(url))
      },
    })
    render(
      <Page>
        <Users client={client} role="admin" />
      </Page>,
    )
    const table = await screen.findByRole('table', { name: 'Users' })
    expect(
      await within(table).findByText('0x70997970C51812dc3A010C7d01b50e0d17dc79C8'),
    ).toBeTruthy()
    expect(urls.map((url) => url.pathname)).toEqual(['/api/admin/users'])

    let reply!: (response: Response) => void
    answer = () => new Promise((resolve) => (reply = resolve))
    fireEvent.change(screen.getByLabelText('Search by address'), { target: { value: '0xf39' } })
    await expect.poll(() => urls.at(-1)?.searchParams.get('search')).toBe('0xf39')
    // Still the last answer until the new one arrives.
    expect(within(table).getByText('0x70997970C51812dc3A010C7d01b50e0d17dc79C8')).toBeTruthy()
    reply(Response.json({ results: [] }))
    // No rows: a sentence instead of the table.
    await expect.poll(() => screen.queryByRole('table', { name: 'Users' })).toBeNull()
    expect(document.querySelector('.console-empty')).toBeTruthy()
  })
})
