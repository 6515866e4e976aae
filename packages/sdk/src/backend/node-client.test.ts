import { describe, expect, it } from 'vitest'
import { InvalidUrlError } from '../errors/config.ts'
import { connectNode } from '../rpc/connect-node.ts'
import { verifySignIn } from '../auth/verify.ts'
import { createBackendClient } from './client.ts'

// Outside a browser (these tests run in Node): configuration mistakes are thrown when the
// client is created, and sign-in keeps its session as a bearer token.

describe('in Node', () => {
  it.each(['/', '', 'app.example', 'ftp://app.example'])(
    'createBackendClient refuses serverUrl %j at creation, saying what to use',
    (serverUrl) => {
      const attempt = () => createBackendClient({ serverUrl, appId: 'a' })
      expect(attempt).toThrow(InvalidUrlError)
      expect(attempt).toThrow(
        /Invalid serverUrl .*\n\nUse an absolute http\(s\) URL, such as https:\/\/app\.example/,
      )
    },
  )

  it('connectNode refuses the default relative gatewayUrl and relative node URLs at creation', () => {
    expect(() => connectNode({ chainId: 1, speedyNodeApiKey: 'key' })).toThrow(
      /Invalid gatewayUrl "\/api\/rpc"/,
    )
    expect(() => connectNode({ chainId: 1, urls: { 1: '/node' } })).toThrow(InvalidUrlError)
    expect(() =>
      connectNode({
        chainId: 1,
        speedyNodeApiKey: 'key',
        gatewayUrl: 'http://127.0.0.1:1/api/rpc',
      }),
    ).not.toThrow()
  })

  it('verifySignIn asks for a bearer token by default and keeps it on the client', async () => {
    const sent: { body: unknown; authorization: string | undefined }[] = []
    const client = createBackendClient({
      serverUrl: 'http://127.0.0.1:1',
      appId: 'a',
      fetch: async (_url, init) => {
        const headers = init.headers as Record<string, string>
        sent.push({
          body: init.body ? JSON.parse(String(init.body)) : undefined,
          authorization: headers.authorization,
        })
        return new Response(
          JSON.stringify({
            user: { id: 'u', address: '0x' },
            session: { id: 's', expiresAt: '2030-01-01T00:00:00Z' },
            token: 'tok',
          }),
          { status: 200 },
        )
      },
    })
    await verifySignIn(client, { message: 'm', signature: '0x00' })
    await client.request('GET', '/api/auth/session')
    expect(sent[0]!.body).toMatchObject({ mode: 'bearer' })
    expect(sent[1]!.authorization).toBe('Bearer tok')
  })
})
