// @vitest-environment happy-dom
import { PorticoProvider } from '@portico/react'
import { createBackendClient } from '@portico/sdk/backend'
import { createPortico } from '@portico/sdk/portico'
import { cleanup, fireEvent, render, screen } from '@testing-library/react'
import { useState, type ReactNode } from 'react'
import { afterEach, describe, expect, it } from 'vitest'
import { Router } from 'wouter'
import { memoryLocation } from 'wouter/memory-location'
import { Dashboard } from './dashboard.tsx'

afterEach(cleanup)

const now = () => new Date('2026-11-21T14:35:10.000Z')
const stats = {
  buckets: [{ start: '2026-11-21T00:00:00.000Z', count: 5 }],
  events: [
    { event: 'sign_in', count: 1 },
    { event: 'page_view', count: 4 },
  ],
  subdomains: [{ subdomain: 'shop.example', count: 5 }],
  total: 5,
}

const audience = {
  buckets: [{ start: '2026-11-21T00:00:00.000Z', visitors: 3, views: 4 }],
  visitors: 3,
  views: 4,
  pages: [
    { path: '/', visitors: 3, views: 3 },
    { path: '/account', visitors: 1, views: 1 },
  ],
  referrers: [
    { referrer: '', visitors: 2, views: 3 },
    { referrer: 'news.example', visitors: 1, views: 1 },
  ],
  devices: [
    { device: 'mobile', visitors: 2, views: 2 },
    { device: 'desktop', visitors: 1, views: 2 },
  ],
}

/** The statistics and the audience, each from its own path. */
const both = (url: URL) => Response.json(url.pathname === '/api/events/audience' ? audience : stats)
const statsUrls = (urls: URL[]) => urls.filter((url) => url.pathname === '/api/events/stats')

/** A real backend client whose network answers from `answer` (and records the URLs). */
function clientAnswering(answer: (url: URL) => Response) {
  const urls: URL[] = []
  const client = createBackendClient({
    serverUrl: 'http://app.test',
    appId: 'test',
    attempts: 1,
    fetch: async (url) => {
      const parsed = new URL(url)
      urls.push(parsed)
      return answer(parsed)
    },
  })
  return { client, urls }
}

const error = (status: number, code: string, message: string) =>
  Response.json({ error: { code, message } }, { status })

/** The app's providers around one page: each render starts with nothing loaded. */
function Page({ children }: { children: ReactNode }) {
  const [portico] = useState(() =>
    createPortico({ serverUrl: 'http://app.test', appId: 'test', chains: [] }),
  )
  return (
    <PorticoProvider portico={portico}>
      <Router hook={memoryLocation({ path: '/analytics' }).hook}>{children}</Router>
    </PorticoProvider>
  )
}

function renderDashboard(client: ReturnType<typeof clientAnswering>['client']) {
  return render(
    <Page>
      <Dashboard client={client} now={now} />
    </Page>,
  )
}

describe('Dashboard', () => {
  it('shows loading, then the total, top events in order and the subdomains', async () => {
    const { client } = clientAnswering(both)
    renderDashboard(client)
    expect(screen.getByRole('status').textContent).toContain('Loading statistics')
    expect(await screen.findByText('5 in total')).toBeTruthy()
    const top = screen.getByRole('table', { name: 'Top events' })
    const rows = [...top.querySelectorAll('tbody tr')].map((row) => row.textContent)
    expect(rows).toEqual(['page_view4', 'sign_in1'])
    expect(screen.getByRole('table', { name: 'Subdomains' }).textContent).toContain('shop.example')
    expect(await screen.findByRole('option', { name: 'shop.example' })).toBeTruthy()
    // The chart's text alternative and its table.
    expect(screen.getByText(/5 events over 7 days/)).toBeTruthy()
    expect(screen.getByRole('table', { name: 'Events per day (UTC)' })).toBeTruthy()
  })

  it('asks once per query with its default clock (no render loop)', async () => {
    const { client, urls } = clientAnswering(both)
    render(
      <Page>
        <Dashboard client={client} />
      </Page>,
    )
    await screen.findByText('5 in total')
    await screen.findByText('3 visitors, 4 page views')
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(urls.map((url) => url.pathname).sort()).toEqual([
      '/api/events/audience',
      '/api/events/stats',
    ])
  })

  it('asks again for the range and the subdomain picked', async () => {
    const { client, urls } = clientAnswering(both)
    renderDashboard(client)
    await screen.findByText('5 in total')
    fireEvent.click(screen.getByRole('radio', { name: 'Last 24 hours' }))
    await screen.findByText('5 in total')
    expect(statsUrls(urls).at(-1)!.searchParams.get('bucket')).toBe('hour')
    fireEvent.change(screen.getByLabelText('Subdomain'), { target: { value: 'shop.example' } })
    await screen.findByText('5 in total')
    expect(statsUrls(urls).at(-1)!.searchParams.get('subdomain')).toBe('shop.example')
    expect(statsUrls(urls).at(-1)!.searchParams.get('from')).toBe('2026-11-20T15:00:00.000Z')
    // The audience follows the same range and subdomain.
    await screen.findByText('3 visitors, 4 page views')
    const asked = urls.filter((url) => url.pathname === '/api/events/audience').at(-1)!
    expect(asked.searchParams.get('subdomain')).toBe('shop.example')
    expect(asked.searchParams.get('bucket')).toBe('hour')
  })

  it('shows unique visitors, top pages, referrers and devices under the events', async () => {
    const { client } = clientAnswering(both)
    renderDashboard(client)
    expect(await screen.findByText('3 visitors, 4 page views')).toBeTruthy()
    const rows = (name: string) =>
      [...screen.getByRole('table', { name }).querySelectorAll('tbody tr')].map(
        (row) => row.textContent,
      )
    expect(rows('Top pages')).toEqual(['/3', '/account1'])
    expect(rows('Referrers')).toEqual(['Direct or not known2', 'news.example1'])
    expect(rows('Devices')).toEqual(['Phone2', 'Desktop1'])
    expect(screen.getByText(/3 visitors over 7 days/)).toBeTruthy()
    expect(screen.getByRole('table', { name: 'Visitors per day (UTC)' })).toBeTruthy()
  })

  it('says so when there are no events', async () => {
    const { client } = clientAnswering(() =>
      Response.json({ buckets: [], events: [], subdomains: [], total: 0 }),
    )
    renderDashboard(client)
    expect(await screen.findByText('No events in this range yet.')).toBeTruthy()
  })

  it('tells a non-admin they are not allowed, and a signed-out visitor to sign in', async () => {
    const forbidden = clientAnswering(() => error(403, 'forbidden', 'Admins only'))
    renderDashboard(forbidden.client)
    expect(await screen.findByRole('heading', { name: 'Not allowed' })).toBeTruthy()
    expect(screen.queryByRole('radio')).toBeNull()
    cleanup()
    const signedOut = clientAnswering(() => error(401, 'unauthenticated', 'Sign in first'))
    renderDashboard(signedOut.client)
    expect(await screen.findByRole('heading', { name: 'Sign in first' })).toBeTruthy()
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeTruthy()
  })

  it('shows an error with a retry that loads again', async () => {
    let fail = true
    const { client } = clientAnswering((url) =>
      fail ? error(500, 'internal', 'Database unavailable') : both(url),
    )
    renderDashboard(client)
    const alert = await screen.findByRole('alert')
    expect(alert.textContent).toContain('Database unavailable')
    fail = false
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }))
    expect(await screen.findByText('5 in total')).toBeTruthy()
  })
})
