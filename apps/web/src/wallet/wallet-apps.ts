// Phone wallets that can open this very page in their own browser, where the wallet is then a
// browser wallet like any other: no vendor account, no configuration. Each link is the wallet's
// documented universal link; it opens the app when installed and its download page otherwise.

export interface WalletApp {
  id: 'metamask' | 'coinbase' | 'trust'
  name: string
  /** The universal link that opens `pageUrl` in the app's browser. */
  link(pageUrl: URL): string
}

export const walletApps: readonly WalletApp[] = [
  {
    id: 'metamask',
    name: 'MetaMask',
    // MetaMask's "open a dapp in the in-app browser" link takes the address without its scheme.
    link: (page) => `https://link.metamask.io/dapp/${page.host}${page.pathname}${page.search}`,
  },
  {
    id: 'coinbase',
    name: 'Coinbase Wallet',
    link: (page) => `https://go.cb-w.com/dapp?cb_url=${encodeURIComponent(page.href)}`,
  },
  {
    id: 'trust',
    name: 'Trust Wallet',
    // coin_id 60 is Ethereum (SLIP-44): the app opens the page on an Ethereum-compatible account.
    link: (page) =>
      `https://link.trustwallet.com/open_url?coin_id=60&url=${encodeURIComponent(page.href)}`,
  },
]

/** The page as a wallet app should open it: without the fragment, which the apps drop anyway. */
export function pageForWalletApp(location: Pick<Location, 'href'>): URL {
  const url = new URL(location.href)
  url.hash = ''
  return url
}

/**
 * Puts the recently used choice first and keeps the others in their order; `recent` is a
 * connector id or a wallet app id.
 */
export function recentFirst<T>(items: readonly T[], idOf: (item: T) => string, recent?: string) {
  const index = recent === undefined ? -1 : items.findIndex((item) => idOf(item) === recent)
  if (index <= 0) return [...items]
  return [items[index]!, ...items.slice(0, index), ...items.slice(index + 1)]
}

/** True on phones and tablets, where wallet apps (not extensions) are what people have. */
export function isTouchDevice(win: Pick<Window, 'matchMedia' | 'navigator'> = window): boolean {
  return win.matchMedia('(pointer: coarse)').matches || win.navigator.maxTouchPoints > 0
}
