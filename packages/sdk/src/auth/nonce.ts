import type { BackendClient } from '../backend/client.ts'
import type { SignInNonce } from '../wire/types.ts'

/**
 * What `POST /api/auth/nonce` answers: everything a sign-in message must contain (the nonce,
 * the server's clock as Issued At, the app id as Request ID, the domain and URI, the chains a
 * session may be started on, when the nonce expires, and the statement the wallet shows).
 */
export type { SignInNonce }

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
