// @vitest-environment happy-dom
import { useState, type ReactNode } from 'react'
import { cleanup, render, screen } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { PorticoProvider } from '@portico/react'
import { createBackendClient } from '@portico/sdk/backend'
import { createPortico } from '@portico/sdk/portico'
import { ClassDefaultsPanel } from './class-defaults.tsx'

afterEach(cleanup)

function Page({ children }: { children: ReactNode }) {
  const [portico] = useState(() =>
    createPortico({ serverUrl: 'http://app.test', appId: 'test', chains: [] }),
  )
  return <PorticoProvider portico={portico}>{children}</PorticoProvider>
}

describe('the class defaults panel', () => {
  it('tells an admin that an operation class-level permissions leave out is closed', async () => {
    const sent: string[] = []
    const client = createBackendClient({
      serverUrl: 'http://app.test',
      appId: 'test',
      attempts: 1,
      fetch: async (input) => {
        sent.push(decodeURIComponent(new URL(input).pathname))
        return Response.json({
          className: 'Item',
          writers: 'users',
          sync: null,
          newObject: { creator: 'read-write', public: 'read' },
        })
      },
    })
    render(
      <Page>
        <ClassDefaultsPanel client={client} className="Item" />
      </Page>,
    )
    expect(await screen.findByText('Reads and writes it')).toBeTruthy()
    expect(sent).toEqual(['/api/admin/classes/Item/defaults'])
    const note = screen.getByText(/Class-level permissions/)
    expect(note.textContent).toContain('A class without one is open')
    expect(note.textContent).toContain(
      'an operation it leaves out is closed to all but the master key and the console',
    )
  })
})
