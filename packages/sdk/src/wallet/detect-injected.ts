import type { EIP1193Provider } from 'viem'

/** What a page exposes about browser wallets: EIP-6963 events and the legacy `window.ethereum`. */
export interface InjectedWindow {
  ethereum?: EIP1193Provider | undefined
  addEventListener(type: string, listener: (event: Event) => void): void
  removeEventListener(type: string, listener: (event: Event) => void): void
  dispatchEvent(event: Event): boolean
}

/** Default wait for a browser wallet to appear. */
export const injectedWaitMs = 3000

/**
 * Resolves `true` as soon as a browser wallet is present: a legacy `window.ethereum`, or any
 * wallet announcing itself through EIP-6963. Extensions may inject late, so when none is there
 * yet this waits up to `timeoutMs` for MetaMask's `ethereum#initialized` event or an EIP-6963
 * announcement (the approach of @metamask/detect-provider), then resolves `false`.
 */
export function waitForInjectedWallet(
  target: InjectedWindow,
  { timeoutMs = injectedWaitMs, signal }: { timeoutMs?: number; signal?: AbortSignal } = {},
): Promise<boolean> {
  if (target.ethereum) return Promise.resolve(true)
  return new Promise((resolve) => {
    let settled = false
    const finish = (found: boolean) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      target.removeEventListener('ethereum#initialized', onInitialized)
      target.removeEventListener('eip6963:announceProvider', onAnnounced)
      signal?.removeEventListener('abort', onAbort)
      resolve(found)
    }
    const onInitialized = () => finish(Boolean(target.ethereum))
    const onAnnounced = () => finish(true)
    const onAbort = () => finish(Boolean(target.ethereum))
    const timer = setTimeout(() => finish(Boolean(target.ethereum)), timeoutMs)
    target.addEventListener('ethereum#initialized', onInitialized)
    target.addEventListener('eip6963:announceProvider', onAnnounced)
    signal?.addEventListener('abort', onAbort)
    // Ask EIP-6963 wallets to (re-)announce; a wallet that is already there answers at once.
    target.dispatchEvent(new Event('eip6963:requestProvider'))
  })
}
