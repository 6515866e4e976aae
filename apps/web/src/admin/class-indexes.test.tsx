// @vitest-environment happy-dom
import { useState, type ReactNode } from 'react'
import { cleanup, fireEvent, render, screen } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { PorticoProvider } from '@portico/react'
import { createBackendClient } from '@portico/sdk/backend'
import { createPortico } from '@portico/sdk/portico'
import { ClassIndexes } from './class-indexes.tsx'

afterEach(cleanup)

function Page({ children }: { children: ReactNode }) {
  const [portico] = useState(() =>
    createPortico({ serverUrl: 'http://app.test', appId: 'test', chains: [] }),
  )
  return <PorticoProvider portico={portico}>{children}</PorticoProvider>
}

/** A server holding two indexes of Item until one is removed; what it was sent is kept. */
function scripted() {
  const sent: string[] = []
  let indexes = [
    {
      field: 'kind',
      indexName: 'i1',
      createdAt: '2026-01-01T00:00:00.000Z',
      scans: 1234,
      bytes: 4096,
    },
    {
      field: 'tag|-score',
      indexName: 'i2',
      createdAt: '2026-01-02T00:00:00.000Z',
      scans: 0,
      bytes: 2048,
    },
  ]
  const client = createBackendClient({
    serverUrl: 'http://app.test',
    appId: 'test',
    attempts: 1,
    fetch: async (input, init) => {
      const url = new URL(input)
      const method = init.method ?? 'GET'
      sent.push(`${method} ${decodeURIComponent(url.pathname)}`)
      if (method === 'DELETE') {
        const field = decodeURIComponent(url.pathname.split('/').at(-1)!)
        indexes = indexes.filter((index) => index.field !== field)
        return new Response(null, { status: 204 })
      }
      return Response.json({ indexes })
    },
  })
  return { client, sent }
}

describe('the class indexes panel', () => {
  it('lists each index with its reads, and an admin removes one', async () => {
    const { client, sent } = scripted()
    render(
      <Page>
        <ClassIndexes client={client} className="Item" readOnly={false} />
      </Page>,
    )
    expect(await screen.findByText('tag then -score')).toBeTruthy()
    expect(screen.getByText('1,234')).toBeTruthy()
    fireEvent.click(screen.getByRole('button', { name: 'Remove the index on tag|-score' }))
    await screen.findByRole('button', { name: 'Remove the index on kind' })
    await expect.poll(() => screen.queryByText('tag then -score')).toBeNull()
    expect(sent).toContain('DELETE /api/admin/classes/Item/indexes/tag|-score')
  })

  it('offers no removal to a viewer', async () => {
    const { client } = scripted()
    render(
      <Page>
        <ClassIndexes client={client} className="Item" readOnly />
      </Page>,
    )
    expect(await screen.findByText('kind')).toBeTruthy()
    expect(screen.queryByRole('button')).toBeNull()
  })
})
