import { createConnector } from '@wagmi/core'
import { getAddress, type Address, type EIP1193Provider } from 'viem'

/** What a vendor SDK gives back once the user is signed in to it. */
export interface VendorSession {
  provider: EIP1193Provider
  /** Ends the vendor's own session (Magic, Web3Auth, WalletConnect pairing). */
  logout?: (() => Promise<void>) | undefined
}

/** Options a caller may pass through `connect()` to a vendor connector. */
export interface VendorConnectOptions {
  isReconnecting?: boolean | undefined
  /** Email address for the email-link connector. */
  email?: string | undefined
}

export interface VendorConnectorParameters {
  id: string
  name: string
  type: 'walletConnect' | 'magic' | 'web3auth'
  icon?: string | undefined
  /**
   * Loads the vendor SDK (with `await import()`, so nothing loads before the user picks this
   * connector), signs the user in to it and returns its EIP-1193 provider. Throws the catalogue
   * error of the vendor, the original kept as `cause`.
   */
  start(options: VendorConnectOptions): Promise<VendorSession>
}

const connectedKey = (id: string) => `${id}.connected`

/**
 * A wagmi connector around a lazily started vendor SDK. Unlike wagmi's own vendor connectors it
 * does nothing at setup: the SDK is imported on `connect()` (or on reconnect of the wallet the
 * user chose last time), never when the app starts.
 */
export function vendorConnector(parameters: VendorConnectorParameters) {
  let session: VendorSession | undefined
  let listeners: { accounts: (a: string[]) => void; chain: (c: string) => void; end: () => void }

  return createConnector<EIP1193Provider | undefined>((config) => ({
    id: parameters.id,
    name: parameters.name,
    type: parameters.type,
    icon: parameters.icon,

    async connect(options = {}) {
      const { isReconnecting, email } = options as VendorConnectOptions
      session = await parameters.start({ isReconnecting, email })
      const provider = session.provider
      const raw = (await provider.request({
        method: isReconnecting ? 'eth_accounts' : 'eth_requestAccounts',
      })) as string[]
      if (!raw.length) throw new Error('The wallet returned no account')
      const accounts = raw.map((address) => getAddress(address))
      const chainId = Number(await provider.request({ method: 'eth_chainId' }))
      listeners = {
        accounts: this.onAccountsChanged.bind(this),
        chain: this.onChainChanged.bind(this),
        end: () => this.onDisconnect(),
      }
      provider.on('accountsChanged', listeners.accounts)
      provider.on('chainChanged', listeners.chain)
      provider.on('disconnect', listeners.end)
      await config.storage?.setItem(connectedKey(parameters.id) as never, true as never)
      return { accounts: accounts as never, chainId }
    },

    async disconnect() {
      const current = session
      session = undefined
      await config.storage?.removeItem(connectedKey(parameters.id) as never)
      if (!current) return
      current.provider.removeListener('accountsChanged', listeners.accounts)
      current.provider.removeListener('chainChanged', listeners.chain)
      current.provider.removeListener('disconnect', listeners.end)
      await current.logout?.().catch(() => undefined)
    },

    async getAccounts() {
      if (!session) return []
      const raw = (await session.provider.request({ method: 'eth_accounts' })) as string[]
      return raw.map((address) => getAddress(address)) as readonly Address[]
    },

    async getChainId() {
      if (!session) throw new Error(`${parameters.name} is not connected`)
      return Number(await session.provider.request({ method: 'eth_chainId' }))
    },

    async getProvider() {
      return session?.provider
    },

    async isAuthorized() {
      // Only the flag: checking with the vendor would load its SDK for every visitor.
      return Boolean(await config.storage?.getItem(connectedKey(parameters.id) as never))
    },

    onAccountsChanged(accounts) {
      if (accounts.length === 0) this.onDisconnect()
      else config.emitter.emit('change', { accounts: accounts.map((a) => getAddress(a)) })
    },

    onChainChanged(chainId) {
      config.emitter.emit('change', { chainId: Number(chainId) })
    },

    onDisconnect() {
      void config.storage?.removeItem(connectedKey(parameters.id) as never)
      session = undefined
      config.emitter.emit('disconnect')
    },
  }))
}

/**
 * Imports a vendor SDK (an optional peer dependency): when the package is not installed, the
 * error names it and the command that installs it.
 */
export async function importVendor<T>(packageName: string, load: () => Promise<T>): Promise<T> {
  try {
    return await load()
  } catch (error) {
    const text =
      error instanceof Error ? `${(error as { code?: string }).code ?? ''} ${error.message}` : ''
    if (
      /MODULE_NOT_FOUND|Cannot find (module|package)|Failed to resolve/i.test(text) &&
      text.includes(packageName)
    ) {
      throw new Error(
        `the package ${packageName} is not installed: run npm install ${packageName}`,
        {
          cause: error,
        },
      )
    }
    throw error
  }
}
