import type { BackendClient } from '../backend/client.ts'

/** What `POST /api/auth/nonce` answers: everything a sign-in message must contain. */
export interface SignInNonce {
  /** Single use; valid until `expiresAt`. */
  nonce: string
  /** The server's clock (ISO): the message's Issued At, so a wrong local clock does not matter. */
  serverTime: string
  /** The application id: the message's Request ID. */
  appId: string
  /** Host (and port) the message must name, e.g. `app.example.org`. */
  domain: string
  /** Origin the message must name as URI. */
  uri: string
  /** Chains a session may be started on. */
  chainIds: number[]
  expiresAt: string
  /** Human-readable line shown by the wallet. */
  statement: string
}

export type GetNonceReturnType = SignInNonce

/**
 * Asks the server for a sign-in nonce (step 1 of sign-in).
 *
 * @example
 * const nonce = await getNonce(client)
 * const message = createSignInMessage({ nonce, address, chainId: 1 })
 */
export function getNonce(client: BackendClient): Promise<GetNonceReturnType> {
  return client.request<SignInNonce>('POST', '/api/auth/nonce', { body: {}, idempotent: false })
}
