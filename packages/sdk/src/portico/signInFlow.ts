import { createSiweMessage } from 'viem/siwe'
import type { BackendClient } from '../backend/client.ts'
import { ChainNotAllowedError } from '../errors/wallet.ts'
import type { Wallet } from '../wallet/createWallet.ts'
import type { AuthUser } from './authMachine.ts'
import { toAuthUser } from './sessionApi.ts'
import { browserTrackingAllowed } from '../events/privacy.ts'

interface NonceAnswer {
  nonce: string
  serverTime: string
  appId: string
  domain: string
  uri: string
  chainIds: number[]
  expiresAt: string
  statement: string
}

export type SignInStep = 'connecting' | 'signing' | 'verifying'

export interface SignInWithWalletParameters {
  backend: BackendClient
  wallet: Wallet
  address: `0x${string}`
  chainId: number
  onStep?: ((step: SignInStep) => void) | undefined
  /** Sent with the `sign_in` event. */
  subdomain: string
}

/**
 * Sign-In with Ethereum against the Portico server (design.md section 3): nonce → EIP-4361
 * message (issuedAt = server time, requestId = app id) → wallet signature → verify. Tracks a
 * `sign_in` event afterwards without letting a tracking failure undo the sign-in.
 */
export async function signInWithWallet(parameters: SignInWithWalletParameters): Promise<AuthUser> {
  const { backend, wallet, address, chainId } = parameters
  const nonce = await backend.request<NonceAnswer>('POST', '/api/auth/nonce', { body: {} })
  if (!nonce.chainIds.includes(chainId)) {
    throw new ChainNotAllowedError({ chainId, allowed: nonce.chainIds })
  }
  const message = createSiweMessage({
    address,
    chainId,
    domain: nonce.domain,
    uri: nonce.uri,
    nonce: nonce.nonce,
    version: '1',
    statement: nonce.statement,
    issuedAt: new Date(nonce.serverTime),
    expirationTime: new Date(nonce.expiresAt),
    requestId: nonce.appId,
  })
  parameters.onStep?.('signing')
  const signature = await wallet.signMessage(message)
  parameters.onStep?.('verifying')
  const answer = await backend.request<Parameters<typeof toAuthUser>[0]>(
    'POST',
    '/api/auth/verify',
    { body: { message, signature } },
  )
  const user = toAuthUser(answer, chainId)
  // Not when the browser asks not to be tracked (Do-Not-Track, Global Privacy Control; issue 7).
  if (browserTrackingAllowed()) {
    void backend
      .request('POST', '/api/events', {
        body: { subdomain: parameters.subdomain, event: 'sign_in', options: { chainId } },
      })
      .catch(() => undefined)
  }
  return user
}
