// @vitest-environment happy-dom
import { act, cleanup, render, screen } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { createPortico } from '@portico/sdk/portico'
import { createMemoryStorage } from '@portico/test-kit/memory-storage'
import { PorticoProvider } from './portico-provider.ts'
import { useRoles } from './use-roles.ts'

// `useRoles` against the real SDK client and Portico object; `fetch` stands in for the server.

afterEach(cleanup)

const role = (name: string) => ({
  objectId: `id-${name}`,
  name,
  owner: 'u1',
  acl: { '*': { read: true } },
  createdAt: '2024-01-01T00:00:00.000Z',
  updatedAt: '2024-01-01T00:00:00.000Z',
  userCount: 2,
  roleCount: 0,
})

function Roles() {
  const { roles, count, isLoading, error } = useRoles({ limit: 50 })
  if (isLoading) return <p>loading</p>
  if (error) return <p>failed: {(error as { code?: string }).code}</p>
  return (
    <p>
      {roles.map((r) => `${r.name} (${r.userCount})`).join(', ')} of {count}
    </p>
  )
}

function portico(answer: (url: string) => Response) {
  const requests: string[] = []
  const client = createPortico({
    serverUrl: 'http://app.test',
    appId: 'test',
    chains: [],
    storage: createMemoryStorage(),
    fetch: async (url) => {
      requests.push(url)
      return answer(url)
    },
  })
  return { client, requests }
}

describe('useRoles', () => {
  it('reads the roles once the session is known, as the server answers them', async () => {
    const { client, requests } = portico(() =>
      Response.json({ results: [role('Crew'), role('Staff')], count: 2 }),
    )
    render(
      <PorticoProvider portico={client}>
        <Roles />
      </PorticoProvider>,
    )
    expect(screen.getByText('loading')).toBeTruthy()
    // Nothing is asked before the client has started (the session is not known yet).
    expect(requests).toEqual([])
    await act(() => client.start())
    expect(await screen.findByText('Crew (2), Staff (2) of 2')).toBeTruthy()
    expect(requests).toEqual(['http://app.test/api/roles?limit=50'])
  })

  it("shows the server's refusal", async () => {
    const { client } = portico(() =>
      Response.json({ error: { code: 'invalid_query', message: 'no' } }, { status: 400 }),
    )
    render(
      <PorticoProvider portico={client}>
        <Roles />
      </PorticoProvider>,
    )
    await act(() => client.start())
    expect(await screen.findByText('failed: invalid_query')).toBeTruthy()
  })
})
