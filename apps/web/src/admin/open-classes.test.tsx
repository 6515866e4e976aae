// @vitest-environment happy-dom
import { useState, type ReactNode } from 'react'
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { PorticoProvider } from '@portico/react'
import { createBackendClient } from '@portico/sdk/backend'
import { createPortico } from '@portico/sdk/portico'
import { OpenClassBadge } from './open-classes.tsx'

afterEach(cleanup)

function Page({ children }: { children: ReactNode }) {
  const [portico] = useState(() =>
    createPortico({ serverUrl: 'http://app.test', appId: 'test', chains: [] }),
  )
  return <PorticoProvider portico={portico}>{children}</PorticoProvider>
}

const clientAnswering = (sent: string[], answer: () => Response) =>
  createBackendClient({
    serverUrl: 'http://app.test',
    appId: 'test',
    attempts: 1,
    fetch: async (input, init) => {
      sent.push(`${init?.method ?? 'GET'} ${decodeURIComponent(new URL(input).pathname)}`)
      return answer()
    },
  })

describe('the badge of a class open to signed-out writes', () => {
  it('says what is open and closes the class to signed-in users in one step', async () => {
    const sent: string[] = []
    const client = clientAnswering(sent, () => Response.json({ classLevelPermissions: {} }))
    let closed = 0
    render(
      <Page>
        <OpenClassBadge
          client={client}
          open={{ className: 'Guest Book', create: true, write: true }}
          readOnly={false}
          onClosed={() => closed++}
        />
      </Page>,
    )
    expect(screen.getByText('Anyone signed out may create and change objects')).toBeTruthy()
    fireEvent.click(screen.getByRole('button', { name: 'Close to signed-in users' }))
    await waitFor(() => expect(closed).toBe(1))
    expect(sent).toEqual(['POST /api/admin/classes/Guest Book/close'])
  })

  it('shows the refusal, and offers a viewer no button', async () => {
    const sent: string[] = []
    const client = clientAnswering(sent, () =>
      Response.json(
        { error: { code: 'read_only', message: 'Viewers cannot change this.' } },
        { status: 403 },
      ),
    )
    const { rerender } = render(
      <Page>
        <OpenClassBadge
          client={client}
          open={{ className: 'Board', create: false, write: true }}
          readOnly={false}
          onClosed={() => {}}
        />
      </Page>,
    )
    expect(screen.getByText('Anyone signed out may change some objects')).toBeTruthy()
    fireEvent.click(screen.getByRole('button', { name: 'Close to signed-in users' }))
    expect((await screen.findByRole('alert')).textContent).toContain('Viewers cannot change this.')
    rerender(
      <Page>
        <OpenClassBadge
          client={client}
          open={{ className: 'Board', create: false, write: true }}
          readOnly
          onClosed={() => {}}
        />
      </Page>,
    )
    expect(screen.queryByRole('button')).toBeNull()
  })
})
