import type { Hex } from 'viem'
import type { BackendClient } from '../backend/client.ts'
import type { SignInResult } from '../wire/types.ts'

export interface VerifySignInParameters {
  message: string
  signature: Hex
  /**
   * `cookie` (the default in a browser): the server sets an HttpOnly session cookie.
   * `bearer` (the default elsewhere, e.g. Node): the server returns a token, which is set on the
   * client. Outside a browser nothing keeps cookies, so a cookie session would be lost at once.
   */
  mode?: 'cookie' | 'bearer' | undefined
}

/** What a sign-in answers; `token` only in bearer mode. */
export type { SignInResult }

export type VerifySignInReturnType = SignInResult

/** A page that keeps cookies for the server (a browser document), as opposed to Node or a worker. */
const inBrowser = () => 'document' in globalThis && 'navigator' in globalThis

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
      mode: parameters.mode ?? (inBrowser() ? 'cookie' : 'bearer'),
    },
    idempotent: false,
  })
  if (result.token) client.setToken(result.token)
  return result
}
