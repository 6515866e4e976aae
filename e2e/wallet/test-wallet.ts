import type { Page } from '@playwright/test'
import { createPublicClient, http, type Hex } from 'viem'
import { privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts'

// A browser wallet for tests: an EIP-1193 provider injected before the page loads, whose
// signatures come from real local keys held on the Node side (page.exposeFunction) and whose
// reads go to a real anvil chain. Only the wallet's UI is missing; the test plays the user.

/** Anvil's first four default accounts (public test keys). */
export const anvilKeys = [
  '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80',
  '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d',
  '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a',
  '0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6',
] as const satisfies readonly Hex[]

export type WalletMode =
  /** Announced through EIP-6963 at load (like every modern extension). */
  | 'eip6963'
  /** Only a legacy `window.ethereum`, appearing 1 s after load (a slow extension). */
  | 'legacy-late'
  /** Only a legacy `window.ethereum`, there from the start (what Moralis v1 apps look for). */
  | 'legacy'
  /** No wallet at all. */
  | 'none'

export interface TestWallet {
  accounts: PrivateKeyAccount[]
  /** The account the wallet currently uses. */
  current(): PrivateKeyAccount
  /** Switches the wallet to another account, as a user would in the extension. */
  switchAccount(page: Page, index: number): Promise<void>
  /** The user disconnects this site in the wallet. */
  disconnect(page: Page): Promise<void>
  /** Switches the wallet to another chain (it only reports the change; reads stay on anvil). */
  switchChain(page: Page, chainId: number): Promise<void>
  /** The user rejects the next signature request (or network switch). */
  rejectNextSignature(page: Page): Promise<void>
  /** Requests for signatures the wallet received. */
  signatures: string[]
}

export const TEST_WALLET = {
  name: 'Portico Test Wallet',
  rdns: 'org.portico.testwallet',
}

/** Installs the wallet into `page` (call before the first `goto`). */
export async function installTestWallet(
  page: Page,
  { anvilUrl, mode = 'eip6963' }: { anvilUrl: string; mode?: WalletMode },
): Promise<TestWallet> {
  const accounts = anvilKeys.map((key) => privateKeyToAccount(key))
  let index = 0
  const node = createPublicClient({ transport: http(anvilUrl) })
  const wallet: TestWallet = {
    accounts,
    current: () => accounts[index]!,
    async switchAccount(target, next) {
      index = next
      await target.evaluate(
        (address) => window.__testWallet!.setAccount(address),
        accounts[next]!.address,
      )
    },
    async disconnect(target) {
      await target.evaluate(() => window.__testWallet!.disconnect())
    },
    async switchChain(target, chainId) {
      await target.evaluate((id) => window.__testWallet!.setChain(id), chainId)
    },
    async rejectNextSignature(target) {
      await target.evaluate(() => (window.__testWallet!.rejectNext = true))
    },
    signatures: [],
  }

  await page.exposeFunction('__testWalletSign', async (method: string, params: unknown[]) => {
    const account = wallet.current()
    wallet.signatures.push(method)
    if (method === 'personal_sign')
      return account.signMessage({ message: { raw: params[0] as Hex } })
    if (method === 'eth_signTypedData_v4') {
      return account.signTypedData(JSON.parse(params[1] as string))
    }
    throw new Error(`test wallet cannot ${method}`)
  })
  await page.exposeFunction('__testWalletRpc', (method: string, params: unknown[]) =>
    node.request({ method: method as never, params: params as never }),
  )
  await page.addInitScript(injectWallet, {
    mode,
    address: accounts[0]!.address,
    name: TEST_WALLET.name,
    rdns: TEST_WALLET.rdns,
  })
  return wallet
}

declare global {
  interface Window {
    __testWallet?: {
      setAccount(address: string): void
      setChain(chainId: number): void
      disconnect(): void
      rejectNext: boolean
      networkRequests: string[]
    }
    __testWalletSign(method: string, params: unknown[]): Promise<string>
    __testWalletRpc(method: string, params: unknown[]): Promise<unknown>
  }
}

/** Runs in the page before any of its scripts. */
function injectWallet(config: { mode: WalletMode; address: string; name: string; rdns: string }) {
  if (config.mode === 'none') return
  const listeners = new Map<string, Set<(...args: unknown[]) => void>>()
  const emit = (event: string, ...args: unknown[]) =>
    listeners.get(event)?.forEach((listener) => listener(...args))
  // Like a real extension, the wallet remembers which account this site may see across reloads.
  const remembered = sessionStorage.getItem('testWallet.connected')
  let connected: string[] = remembered ? (JSON.parse(remembered) as string[]) : []
  let current = connected[0] ?? config.address
  const remember = () => sessionStorage.setItem('testWallet.connected', JSON.stringify(connected))
  let chainId: string | undefined
  // Like MetaMask: it knows a few networks; switching to another one fails with 4902 until the
  // site adds it (wallet_addEthereumChain), which also switches to it.
  const known = new Set(['0x1', '0x5'])
  const control = {
    rejectNext: false,
    /** The network requests the site made (wallet_switchEthereumChain, wallet_addEthereumChain). */
    networkRequests: [] as string[],
    disconnect() {
      connected = []
      remember()
      emit('accountsChanged', connected)
    },
    setChain(id: number) {
      chainId = `0x${id.toString(16)}`
      known.add(chainId)
      emit('chainChanged', chainId)
    },
    setAccount(address: string) {
      current = address
      if (connected.length) {
        connected = [address]
        remember()
        emit('accountsChanged', connected)
      }
    },
  }
  const rejection = () => Object.assign(new Error('User rejected the request.'), { code: 4001 })
  const provider = {
    async request({ method, params = [] }: { method: string; params?: unknown[] }) {
      switch (method) {
        case 'eth_requestAccounts':
          connected = [current]
          remember()
          return connected
        case 'eth_accounts':
          return connected
        case 'eth_chainId':
          return chainId ?? window.__testWalletRpc(method, params)
        case 'wallet_requestPermissions':
          connected = [current]
          remember()
          return [
            {
              parentCapability: 'eth_accounts',
              caveats: [{ type: 'restrictReturnedAccounts', value: connected }],
            },
          ]
        case 'wallet_switchEthereumChain': {
          const target = (params[0] as { chainId: string }).chainId
          control.networkRequests.push(`${method} ${target}`)
          if (control.rejectNext) {
            control.rejectNext = false
            throw rejection()
          }
          if (!known.has(target))
            throw Object.assign(new Error(`Unrecognized chain ID "${target}".`), { code: 4902 })
          control.setChain(Number(target))
          return null
        }
        case 'wallet_addEthereumChain': {
          const chain = params[0] as { chainId: string; rpcUrls: string[] }
          control.networkRequests.push(`${method} ${chain.chainId} ${chain.rpcUrls[0]}`)
          control.setChain(Number(chain.chainId))
          return null
        }
        case 'wallet_revokePermissions':
          connected = []
          remember()
          return null
        case 'personal_sign':
        case 'eth_signTypedData_v4':
          if (control.rejectNext) {
            control.rejectNext = false
            throw rejection()
          }
          return window.__testWalletSign(method, params)
        default:
          return window.__testWalletRpc(method, params)
      }
    },
    on(event: string, listener: (...args: unknown[]) => void) {
      if (!listeners.has(event)) listeners.set(event, new Set())
      listeners.get(event)!.add(listener)
      return provider
    },
    removeListener(event: string, listener: (...args: unknown[]) => void) {
      listeners.get(event)?.delete(listener)
      return provider
    },
  }
  window.__testWallet = control
  if (config.mode === 'eip6963') {
    const icon =
      'data:image/svg+xml,' +
      encodeURIComponent(
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" fill="#1d4ed8"/><text x="16" y="22" font-size="16" text-anchor="middle" fill="#fff">T</text></svg>',
      )
    const detail = Object.freeze({
      info: { uuid: crypto.randomUUID(), name: config.name, icon, rdns: config.rdns },
      provider,
    })
    const announce = () =>
      window.dispatchEvent(new CustomEvent('eip6963:announceProvider', { detail }))
    window.addEventListener('eip6963:requestProvider', announce)
    announce()
  } else if (config.mode === 'legacy') {
    ;(window as unknown as { ethereum: unknown }).ethereum = provider
  } else {
    // A slow extension: window.ethereum appears a second after the page loaded.
    window.addEventListener('load', () =>
      setTimeout(() => {
        ;(window as unknown as { ethereum: unknown }).ethereum = provider
        window.dispatchEvent(new Event('ethereum#initialized'))
      }, 1000),
    )
  }
}
