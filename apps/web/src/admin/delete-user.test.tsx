// @vitest-environment happy-dom
import { useState, type ReactNode } from 'react'
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { PorticoProvider } from '@portico/react'
import { createBackendClient } from '@portico/sdk/backend'
import { createPortico } from '@portico/sdk/portico'
import { DeleteUser } from './delete-user.tsx'

afterEach(cleanup)

function Page({ children }: { children: ReactNode }) {
  const [portico] = useState(() =>
    createPortico({ serverUrl: 'http://app.test', appId: 'test', chains: [] }),
  )
  return <PorticoProvider portico={portico}>{children}</PorticoProvider>
}

describe("the console's user deletion", () => {
  it('asks first, then deletes the user', async () => {
    const sent: string[] = []
    const client = createBackendClient({
      serverUrl: 'http://app.test',
      appId: 'test',
      attempts: 1,
      fetch: async (input, init) => {
        sent.push(`${init?.method ?? 'GET'} ${new URL(input).pathname}`)
        return new Response(null, { status: 204 })
      },
    })
    let deleted = 0
    render(
      <Page>
        <DeleteUser client={client} userId="u1" label="0xabc" onDeleted={() => deleted++} />
      </Page>,
    )
    fireEvent.click(screen.getByRole('button', { name: 'Delete user…' }))
    fireEvent.click(screen.getByRole('button', { name: 'Keep them' }))
    expect(sent).toEqual([])
    fireEvent.click(screen.getByRole('button', { name: 'Delete user…' }))
    expect(screen.getByText('Delete 0xabc for good?')).toBeTruthy()
    fireEvent.click(screen.getByRole('button', { name: 'Yes, delete the user' }))
    await waitFor(() => expect(deleted).toBe(1))
    expect(sent).toEqual(['DELETE /api/admin/users/u1'])
  })
})
