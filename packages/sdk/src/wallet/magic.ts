import { MagicLinkError } from '../errors/wallet.ts'
import { causeText } from './wallet-connect.ts'
import { importVendor, vendorConnector, type VendorSession } from './vendor-connector.ts'

export interface MagicLinkParameters {
  /** Magic publishable API key; without it the connector refuses to start. */
  apiKey?: string | undefined
  /** Chain and node URL the Magic wallet uses. */
  chainId: number
  rpcUrl: string
}

/**
 * Email link sign-in through Magic (`magic-sdk`, imported on first use): Magic emails a link,
 * the user clicks it, and Magic's wallet for that email signs. `connect({ email })` starts it.
 */
export function magicLink(parameters: MagicLinkParameters) {
  return vendorConnector({
    id: 'magic',
    name: 'Email link',
    type: 'magic',
    async start({ isReconnecting, email }): Promise<VendorSession> {
      if (!parameters.apiKey) throw new MagicLinkError({ failure: 'API key missing' })
      if (!isReconnecting && !email) throw new MagicLinkError({ failure: 'email address missing' })
      try {
        const { Magic } = await importVendor('magic-sdk', () => import('./vendors/magic-sdk.ts'))
        const magic = new Magic(parameters.apiKey, {
          network: { rpcUrl: parameters.rpcUrl, chainId: parameters.chainId },
        })
        if (isReconnecting) {
          if (!(await magic.user.isLoggedIn())) throw new Error('the email session has ended')
        } else {
          await magic.auth.loginWithMagicLink({ email: email!, showUI: true })
        }
        return {
          provider: magic.rpcProvider as unknown as VendorSession['provider'],
          logout: async () => void (await magic.user.logout()),
        }
      } catch (error) {
        throw new MagicLinkError({
          failure: 'sign-in failed',
          reason: causeText(error),
          cause: error,
        })
      }
    },
  })
}
