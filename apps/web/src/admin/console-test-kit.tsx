import { useState, type ReactNode } from 'react'
import { PorticoProvider } from '@portico/react'
import { createBackendClient } from '@portico/sdk/backend'
import { createPortico } from '@portico/sdk/portico'

// What the console's component tests draw with: a page holding a Portico, and a backend
// client whose server is a script.

/** A page of the console, inside the Portico its hooks read. */
export function Page({ children }: { children: ReactNode }) {
  const [portico] = useState(() =>
    createPortico({ serverUrl: 'http://app.test', appId: 'test', chains: [] }),
  )
  return <PorticoProvider portico={portico}>{children}</PorticoProvider>
}

/** What a scripted client was sent, one entry a request. */
export interface Sent {
  method: string
  path: string
  body: unknown
}

/**
 * A backend client whose server is `answer` (a Response, or JSON to answer with 200), tried
 * once per call; what it was sent is kept in `sent`.
 */
export function scriptedClient(answer: (method: string, url: URL, body: unknown) => unknown) {
  const sent: Sent[] = []
  const client = createBackendClient({
    serverUrl: 'http://app.test',
    appId: 'test',
    attempts: 1,
    fetch: async (input, init) => {
      const url = new URL(input)
      const method = init.method ?? 'GET'
      const body = typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined
      sent.push({ method, path: url.pathname, body })
      const reply = answer(method, url, body)
      return reply instanceof Response ? reply : Response.json(reply)
    },
  })
  return { client, sent }
}
