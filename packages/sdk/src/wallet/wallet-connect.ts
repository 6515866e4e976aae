import { WalletConnectError } from '../errors/wallet.ts'
import { importVendor, vendorConnector, type VendorSession } from './vendor-connector.ts'

export interface WalletConnectParameters {
  /** WalletConnect Cloud project id; without it the connector refuses to start. */
  projectId?: string | undefined
  /** Chains the dapp can use (the first is requested). */
  chainIds: readonly [number, ...number[]]
  /** Node URL per chain, for the provider's own reads. */
  rpcUrls?: Record<number, string> | undefined
  /** Name, URL and icon shown in the wallet app. */
  metadata?: { name: string; description: string; url: string; icons: string[] } | undefined
  /** Receives the pairing URI; the app renders it as a QR code (no vendor modal). */
  onDisplayUri(uri: string): void
  /**
   * How long to wait for the relay before giving up (ms). The SDK itself retries a silent relay
   * for well over a minute; the user deserves an answer sooner. Default 15000.
   */
  relayTimeoutMs?: number | undefined
}

/** Stops the SDK's own reconnect attempts after we gave up on the relay. */
function closeRelay(provider: unknown): void {
  const relayer = (
    provider as { signer?: { client?: { core?: { relayer?: { transportClose?(): unknown } } } } }
  ).signer?.client?.core?.relayer
  void Promise.resolve(relayer?.transportClose?.()).catch(() => undefined)
}

/** Turns whatever the vendor threw into a readable cause for the catalogue message. */
export function causeText(error: unknown): string {
  if (error instanceof Error && error.message) return error.message.split('\n')[0]!
  if (typeof error === 'string' && error) return error
  if (error && typeof error === 'object' && 'message' in error) return String(error.message)
  return 'unknown error'
}

/**
 * WalletConnect v2 (`@walletconnect/ethereum-provider`, imported on first use). The pairing QR
 * is handed to `onDisplayUri` for the app to render. Any failure becomes
 * `Could not connect via WalletConnect, <cause>`.
 */
export function walletConnect(parameters: WalletConnectParameters) {
  return vendorConnector({
    id: 'walletConnect',
    name: 'WalletConnect',
    type: 'walletConnect',
    async start({ isReconnecting }): Promise<VendorSession> {
      if (!parameters.projectId) throw new WalletConnectError({ failure: 'project id missing' })
      try {
        const { EthereumProvider } = await importVendor(
          '@walletconnect/ethereum-provider',
          () => import('./vendors/wallet-connect-sdk.ts'),
        )
        const [first, ...rest] = parameters.chainIds
        const provider = await EthereumProvider.init({
          projectId: parameters.projectId,
          showQrModal: false,
          optionalChains: [first, ...rest],
          rpcMap: parameters.rpcUrls,
          metadata: parameters.metadata,
          disableProviderPing: true,
        })
        if (!provider.session || !isReconnecting) {
          // The pairing URI only comes once the relay answered: until then, the clock runs.
          let timer: ReturnType<typeof setTimeout> | undefined
          const relayDown = new Promise<never>((_, reject) => {
            timer = setTimeout(
              () => reject(new Error('the relay server could not be reached')),
              parameters.relayTimeoutMs ?? 15_000,
            )
          })
          const onUri = (uri: string) => {
            clearTimeout(timer)
            parameters.onDisplayUri(uri)
          }
          provider.on('display_uri', onUri)
          const connecting = provider.connect({ optionalChains: [first, ...rest] })
          connecting.catch(() => undefined)
          try {
            await Promise.race([connecting, relayDown])
          } catch (error) {
            closeRelay(provider)
            throw error
          } finally {
            clearTimeout(timer)
            provider.removeListener('display_uri', onUri)
          }
        }
        return {
          provider: provider as unknown as VendorSession['provider'],
          logout: () => provider.disconnect(),
        }
      } catch (error) {
        throw new WalletConnectError({
          failure: 'connection failed',
          reason: causeText(error),
          cause: error,
        })
      }
    },
  })
}
