import { createSignInMessage } from '../auth/message.ts'
import { getNonce } from '../auth/nonce.ts'
import { verifySignIn } from '../auth/verify.ts'
import type { BackendClient } from '../backend/client.ts'
import { ChainNotAllowedError } from '../errors/wallet.ts'
import { browserTrackingAllowed } from '../events/privacy.ts'
import { trackEvent } from '../events/track-event.ts'
import type { Wallet } from '../wallet/create-wallet.ts'
import type { AuthUser } from './auth-machine.ts'
import { toAuthUser } from './session-api.ts'

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
 * Sign-In with Ethereum against the Portico server: nonce → EIP-4361
 * message (issuedAt = server time, requestId = app id) → wallet signature → verify. Tracks a
 * `sign_in` event afterwards (unless the browser asks not to be tracked) without letting a
 * tracking failure undo the sign-in.
 */
export async function signInWithWallet(parameters: SignInWithWalletParameters): Promise<AuthUser> {
  const { backend, wallet, address, chainId } = parameters
  const nonce = await getNonce(backend)
  if (!nonce.chainIds.includes(chainId)) {
    throw new ChainNotAllowedError({ chainId, allowed: nonce.chainIds })
  }
  const message = createSignInMessage({ nonce, address, chainId })
  parameters.onStep?.('signing')
  const signature = await wallet.signMessage(message)
  parameters.onStep?.('verifying')
  const user = toAuthUser(await verifySignIn(backend, { message, signature }), chainId)
  if (browserTrackingAllowed()) {
    void trackEvent(backend, {
      event: 'sign_in',
      subdomain: parameters.subdomain,
      options: { chainId },
    })
  }
  return user
}
