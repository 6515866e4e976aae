import type { Address } from 'viem'
import { createSiweMessage } from 'viem/siwe'
import type { SignInNonce } from './nonce.ts'

export interface CreateSignInMessageParameters {
  /** The answer of `getNonce`. */
  nonce: SignInNonce
  /** The wallet account that signs. */
  address: Address
  /** The wallet's current chain; must be one of `nonce.chainIds`. */
  chainId: number
  /** Overrides the server's statement. */
  statement?: string | undefined
}

/**
 * Builds the EIP-4361 (Sign-In with Ethereum) message the wallet signs, with viem's
 * `createSiweMessage`: Issued At is the server's time and Request ID the application id (the
 * spec's "server time signed with an application id"), domain and URI are the ones the server
 * asked for, and the message expires when the nonce does.
 *
 * @example
 * const message = createSignInMessage({ nonce: await getNonce(client), address, chainId: 1 })
 * const signature = await walletClient.signMessage({ account: address, message })
 */
export function createSignInMessage(parameters: CreateSignInMessageParameters): string {
  const { nonce, address, chainId } = parameters
  return createSiweMessage({
    domain: nonce.domain,
    address,
    statement: parameters.statement ?? nonce.statement,
    uri: nonce.uri,
    version: '1',
    chainId,
    nonce: nonce.nonce,
    issuedAt: new Date(nonce.serverTime),
    expirationTime: new Date(nonce.expiresAt),
    requestId: nonce.appId,
  })
}
