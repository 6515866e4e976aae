import type { Hex } from 'viem'
import type { BackendClient } from '../backend/client.ts'

export interface VerifySignInParameters {
  message: string
  signature: Hex
  /**
   * `cookie` (default, browsers): the server sets an HttpOnly session cookie.
   * `bearer` (other clients): the server returns a token, which is set on the client.
   */
  mode?: 'cookie' | 'bearer' | undefined
}

export interface SignInResult {
  user: { id: string; address: string }
  session: { id: string; expiresAt: string }
  /** Only in bearer mode. */
  token?: string
}

export type VerifySignInReturnType = SignInResult

/**
 * Sends the signed message to the server, which checks it and starts a session. A refusal is a
 * `BackendError` whose `code` says why (e.g. `nonce_used`, `siwe_domain_mismatch`,
 * `signature_invalid`). Not retried on its own: a nonce is single-use, so a retry needs a new one.
 *
 * @example
 * const { user } = await verifySignIn(client, { message, signature })
 */
export async function verifySignIn(
  client: BackendClient,
  parameters: VerifySignInParameters,
): Promise<VerifySignInReturnType> {
  const result = await client.request<SignInResult>('POST', '/api/auth/verify', {
    body: {
      message: parameters.message,
      signature: parameters.signature,
      ...(parameters.mode ? { mode: parameters.mode } : {}),
    },
    idempotent: false,
  })
  if (result.token) client.setToken(result.token)
  return result
}
