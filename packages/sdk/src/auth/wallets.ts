import type { Address, Hex } from 'viem'
import type { BackendClient } from '../backend/client.ts'
import type { LinkedWallet } from '../wire/types.ts'
import { createSignInMessage } from './message.ts'
import { getNonce } from './nonce.ts'

/** A wallet of the signed-in user: each signs in as them, `primary` is the first one. */
export type { LinkedWallet }

/**
 * The wallet to link: a sign-in message it signed (for a fresh nonce), or its address and a way
 * to have it sign, and the message is built here.
 */
export type LinkWalletParameters =
  | { message: string; signature: Hex }
  | {
      address: Address
      signMessage: (message: string) => Promise<Hex>
      /** Chain named in the message; the server's first allowed chain by default. */
      chainId?: number | undefined
      /** What the wallet shows; says that it links the wallet by default. */
      statement?: string | undefined
    }

/**
 * Links another wallet to the signed-in user: from then on it signs in as them. The new wallet
 * signs a sign-in message with a fresh nonce (checked by the server like a sign-in, used once).
 * A wallet that belongs to another user is refused (`BackendError` with code `address_taken`).
 *
 * @example
 * const wallets = await linkWallet(client, {
 *   address: second.address,
 *   signMessage: (message) => second.signMessage({ message }),
 * })
 */
export async function linkWallet(
  client: BackendClient,
  parameters: LinkWalletParameters,
): Promise<LinkedWallet[]> {
  let body: { message: string; signature: Hex }
  if ('message' in parameters) {
    body = { message: parameters.message, signature: parameters.signature }
  } else {
    const nonce = await getNonce(client)
    const message = createSignInMessage({
      nonce,
      address: parameters.address,
      chainId: parameters.chainId ?? nonce.chainIds[0]!,
      statement:
        parameters.statement ?? `Link this wallet to the account signed in at ${nonce.domain}.`,
    })
    body = { message, signature: await parameters.signMessage(message) }
  }
  const { wallets } = await client.request<{ wallets: LinkedWallet[] }>('POST', '/api/auth/link', {
    body,
    idempotent: false,
  })
  return wallets
}

/** The signed-in user's wallets, the primary first. */
export async function linkedWallets(client: BackendClient): Promise<LinkedWallet[]> {
  const { wallets } = await client.request<{ wallets: LinkedWallet[] }>('GET', '/api/auth/wallets')
  return wallets
}

/**
 * Unlinks one of the signed-in user's wallets: it no longer signs in as them. The last one stays
 * (`last_address`); when the primary goes, the next linked wallet becomes the primary.
 */
export async function unlinkWallet(
  client: BackendClient,
  address: Address,
): Promise<LinkedWallet[]> {
  const { wallets } = await client.request<{ wallets: LinkedWallet[] }>(
    'DELETE',
    `/api/auth/wallets/${encodeURIComponent(address)}`,
    { idempotent: false },
  )
  return wallets
}
