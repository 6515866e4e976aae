import {
  createPublicClient,
  custom,
  fallback,
  http,
  type Address,
  type Hex,
  type PublicClient,
} from 'viem'
import { verifyMessage } from 'viem/actions'
import { HttpError } from '../errors.ts'
import { recoverSigner } from './signer-recovery.ts'

/** Thrown by the placeholder transport of a chain without a configured node. */
class NoNodeError extends Error {
  override name = 'NoNodeError'
}

/**
 * One viem public client per chain, over the node URLs the server is configured with (the RPC
 * gateway's upstreams). A chain without nodes gets a client whose every call fails: plain
 * signatures still verify offline, contract-wallet signatures cannot.
 */
export function createChainClients(upstreams: ReadonlyMap<number, readonly string[]>) {
  const clients = new Map<number, PublicClient>()
  return (chainId: number): PublicClient => {
    let client = clients.get(chainId)
    if (!client) {
      const urls = upstreams.get(chainId) ?? []
      const transport = urls.length
        ? fallback(urls.map((url) => http(url, { timeout: 10_000, retryCount: 1 })))
        : custom(
            {
              request: async () => {
                throw new NoNodeError(`No node is configured for chain ${chainId}`)
              },
            },
            { retryCount: 0 },
          )
      client = createPublicClient({ transport }) as PublicClient
      clients.set(chainId, client)
    }
    return client
  }
}

export type ChainClients = ReturnType<typeof createChainClients>

/**
 * Verifies who signed a sign-in message with viem's `verifyMessage` (what `verifySiweMessage`
 * does after parsing, which checkSignInMessage already did, more strictly). `mode: 'eoa'` recovers
 * the signer locally first (no node call for ordinary accounts); anything else is checked on
 * chain via ERC-6492 / ERC-1271, which covers deployed and counterfactual contract wallets.
 */
export async function verifySignInSignature(
  clientFor: ChainClients,
  parameters: { message: string; signature: Hex; address: Address; chainId: number },
): Promise<void> {
  // Ordinary accounts, the common case: the signer recovered in a worker thread is the address.
  const signer = await recoverSigner(parameters.message, parameters.signature)
  if (signer !== undefined && signer.toLowerCase() === parameters.address.toLowerCase()) return
  // Anything else (a contract wallet, a wrong signature) the way viem checks it, here.
  let valid: boolean
  try {
    valid = await verifyMessage(clientFor(parameters.chainId), {
      message: parameters.message,
      signature: parameters.signature,
      address: parameters.address,
      // Forwarded to viem's verifyHash; not in the public parameter type of this viem version.
      ...({ mode: 'eoa' } as object),
    })
  } catch (error) {
    if (causedByMissingNode(error)) {
      valid = false
    } else {
      throw new HttpError(
        503,
        'signature_unverifiable',
        'The signature could not be checked on chain right now (node unreachable). Try again.',
      )
    }
  }
  if (!valid) {
    throw new HttpError(
      401,
      'signature_invalid',
      `The signature is not valid for ${parameters.address} on chain ${parameters.chainId}.`,
    )
  }
}

function causedByMissingNode(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 10; depth++) {
    if (current instanceof NoNodeError) return true
    current = (current as { cause?: unknown }).cause
  }
  return false
}
