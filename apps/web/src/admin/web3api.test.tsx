// @vitest-environment happy-dom
import { useState, type ReactNode } from 'react'
import { cleanup, render, screen, within } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { PorticoProvider } from '@portico/react'
import { createBackendClient } from '@portico/sdk/backend'
import { createPortico } from '@portico/sdk/portico'
import type { ConsoleAnswer } from '@portico/sdk/wire'
import { Web3Api } from './web3api.tsx'

// The Web3 API section against a scripted API: each function's calls, errors and times, and
// whether the address index its wallet-wide functions read is configured.

afterEach(cleanup)

type Answer = ConsoleAnswer<'GET /api/admin/web3api'>

function Page({ children }: { children: ReactNode }) {
  const [portico] = useState(() =>
    createPortico({ serverUrl: 'http://app.test', appId: 'test', chains: [] }),
  )
  return <PorticoProvider portico={portico}>{children}</PorticoProvider>
}

const answer: Answer = {
  processId: 'p1',
  since: '2026-01-01T00:00:00.000Z',
  results: [
    {
      name: 'getNativeBalance',
      calls: 40,
      errors: 3,
      totalSeconds: 2,
      averageSeconds: 0.05,
      maxSeconds: 0.4,
    },
    { name: 'getNFTs', calls: 2, errors: 0, totalSeconds: 3, averageSeconds: 1.5, maxSeconds: 2 },
  ],
  addressIndex: { chainIds: [1, 31337] },
  addressEndpoints: ['getNFTs', 'getTokenBalances'],
}

function show(scripted: Answer) {
  const paths: string[] = []
  const client = createBackendClient({
    serverUrl: 'http://app.test',
    appId: 'test',
    attempts: 1,
    fetch: async (input) => {
      paths.push(new URL(input).pathname)
      return Response.json(scripted)
    },
  })
  render(
    <Page>
      <Web3Api client={client} role="viewer" />
    </Page>,
  )
  return paths
}

describe('the Web3 API section', () => {
  it('lists each function with its calls, errors and times', async () => {
    const paths = show(answer)
    const table = await screen.findByRole('table', { name: /^Web3 API functions answered/ })
    const balance = await within(table).findByRole('row', { name: /^getNativeBalance/ })
    const cells = within(balance)
      .getAllByRole('cell')
      .map((cell) => cell.textContent)
    expect(cells).toEqual(['40', '3', '50 ms', '2.00 s'])
    expect(within(balance).getAllByRole('cell')[2]!.getAttribute('title')).toBe('Longest: 400 ms')
    const nfts = within(table).getByRole('row', { name: /^getNFTs/ })
    expect(nfts.textContent).toContain('1.50 s')
    expect(screen.getByText(/^The address index is configured on chains 1, 31337/)).toBeTruthy()
    expect(paths).toEqual(['/api/admin/web3api'])
  })

  it('says which functions need the address index when it is not configured', async () => {
    show({ ...answer, results: [], addressIndex: null })
    const line = await screen.findByText(/^The address index is not configured/)
    expect(line.textContent).toContain('getNFTs, getTokenBalances')
    expect(line.textContent).toContain('ADDRESS_INDEX_CHAINS')
    expect(screen.getByText(/^No Web3 API function was called/)).toBeTruthy()
  })
})
