// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { ClassIndexes } from './class-indexes.tsx'
import { Page, scriptedClient } from './console-test-kit.tsx'

afterEach(cleanup)

/** A server holding two indexes of Item until one is removed; what it was sent is kept. */
function scripted() {
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
  return scriptedClient((method, url) => {
    if (method !== 'DELETE') return { indexes }
    const field = decodeURIComponent(url.pathname.split('/').at(-1)!)
    indexes = indexes.filter((index) => index.field !== field)
    return new Response(null, { status: 204 })
  })
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
    expect(sent.map((s) => `${s.method} ${decodeURIComponent(s.path)}`)).toContain(
      'DELETE /api/admin/classes/Item/indexes/tag|-score',
    )
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
