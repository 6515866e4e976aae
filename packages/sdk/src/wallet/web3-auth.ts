import { Web3AuthError, type Web3AuthFailure } from '../errors/wallet.ts'
import { importVendor, vendorConnector, type VendorSession } from './vendor-connector.ts'

/** Web3Auth's default chain. */
export const web3AuthDefaultChainId = '0x1'

export interface Web3AuthParameters {
  /** Web3Auth client id; the connector refuses to start without one (spec point 5). */
  clientId?: string | undefined
  /** Web3Auth network; `sapphire_mainnet` by default. */
  network?: string | undefined
  /** Hex chain id; `0x1` by default. */
  chainId?: `0x${string}` | undefined
}

/** Runs one step; any failure becomes the catalogue error for that step. */
async function step<T>(reason: Web3AuthFailure, run: () => Promise<T>): Promise<T> {
  try {
    return await run()
  } catch (error) {
    throw new Web3AuthError({ reason, cause: error })
  }
}

/**
 * Social login through Web3Auth (`@web3auth/modal` 10.x, imported on first use). Each of the four
 * failure points of the catalogue gives `Could not connect via Web3Auth, <cause>`: client id
 * missing, error during initialization, error in connecting to provider, error while
 * authenticating.
 */
export function web3Auth(parameters: Web3AuthParameters) {
  return vendorConnector({
    id: 'web3auth',
    name: 'Social login',
    type: 'web3auth',
    async start({ isReconnecting }): Promise<VendorSession> {
      if (!parameters.clientId) throw new Web3AuthError({ reason: 'client id missing' })
      const clientId = parameters.clientId
      const web3auth = await step('error during initialization', async () => {
        const { Web3Auth } = await importVendor(
          '@web3auth/modal',
          () => import('./vendors/web3-auth-sdk.ts'),
        )
        const instance = new Web3Auth({
          clientId,
          web3AuthNetwork: (parameters.network ?? 'sapphire_mainnet') as never,
          defaultChainId: parameters.chainId ?? web3AuthDefaultChainId,
        })
        await instance.init()
        return instance
      })
      const provider = await step('error in connecting to provider', async () => {
        const restored = isReconnecting ? web3auth.provider : null
        const connected = restored ?? (await web3auth.connect())
        if (!connected) throw new Error('Web3Auth returned no provider')
        return connected as unknown as VendorSession['provider']
      })
      await step('error while authenticating', async () => {
        const accounts = (await provider.request({ method: 'eth_accounts' })) as string[]
        if (!accounts.length) throw new Error('no account after login')
      })
      return { provider, logout: () => web3auth.logout() }
    },
  })
}
