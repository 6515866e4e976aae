import { describe, expect, it } from 'vitest'
import { UserRejectedRequestError } from 'viem'
import {
  BackendError,
  NoBrowserWalletError,
  WalletConnectError,
  Web3AuthError,
} from '@portico/sdk/errors'
import { errorAdvice } from './error-advice.ts'

describe('errorAdvice', () => {
  it('shows the catalogue message and says the site has not set up social login', () => {
    expect(errorAdvice(new Web3AuthError({ reason: 'client id missing' }))).toEqual({
      message: 'Could not connect via Web3Auth, client id missing',
      advice: expect.stringContaining('VITE_WEB3AUTH_CLIENT_ID'),
    })
  })

  it('finds a wallet rejection anywhere in the cause chain', () => {
    const rejected = new UserRejectedRequestError(new Error('denied'))
    const wrapped = new WalletConnectError({
      failure: 'connection failed',
      reason: 'denied',
      cause: rejected,
    })
    expect(errorAdvice(wrapped).advice).toMatch(/Nothing was signed/)
    // The headline is the site's words, not the wallet's "User rejected the request."
    expect(errorAdvice(wrapped).message).toBe('You declined the sign-in in your wallet')
  })

  it('tells what to do when no browser wallet exists or the relay is down', () => {
    expect(errorAdvice(new NoBrowserWalletError({ waitedMs: 3000 }))).toEqual({
      message: 'No browser wallet found',
      advice: expect.stringContaining('Install a browser wallet extension'),
    })
    expect(
      errorAdvice(
        new WalletConnectError({
          failure: 'connection failed',
          reason: 'the relay server could not be reached',
        }),
      ).advice,
    ).toMatch(/internet connection/)
  })

  it('shows the server message of a refused sign-in', () => {
    const refused = new BackendError({
      status: 401,
      code: 'nonce_used',
      message: 'This sign-in request was already used.',
      method: 'POST',
      path: '/api/auth/verify',
      attempts: 1,
    })
    expect(errorAdvice(refused)).toEqual({
      message: 'This sign-in request was already used.',
      advice: 'Try signing in again.',
    })
  })
})
