import { describe, expect, it } from 'vitest'
import { parseSiweMessage } from 'viem/siwe'
import { createSignInMessage } from './message.ts'

describe('createSignInMessage', () => {
  it('uses the server time as Issued At and the app id as Request ID', () => {
    const message = createSignInMessage({
      nonce: {
        nonce: 'abcdef1234567890',
        serverTime: '2026-01-02T03:04:05.000Z',
        appId: 'my-app',
        domain: 'app.example.org',
        uri: 'https://app.example.org',
        chainIds: [1],
        expiresAt: '2026-01-02T03:14:05.000Z',
        statement: 'Sign in to My App.',
      },
      address: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
      chainId: 1,
    })
    const fields = parseSiweMessage(message)
    expect(fields).toMatchObject({
      domain: 'app.example.org',
      uri: 'https://app.example.org',
      nonce: 'abcdef1234567890',
      requestId: 'my-app',
      chainId: 1,
      statement: 'Sign in to My App.',
    })
    expect(fields.issuedAt?.toISOString()).toBe('2026-01-02T03:04:05.000Z')
    expect(fields.expirationTime?.toISOString()).toBe('2026-01-02T03:14:05.000Z')
  })
})
