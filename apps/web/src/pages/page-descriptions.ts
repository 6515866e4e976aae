// What search results and link previews say about each page (by its path in the page table).
// Only the build reads these (they go into each page's served HTML), so the page table the
// browser loads stays small.

export const pageDescriptions: Record<string, string> = {
  '/': 'Sign in with your wallet: no password, and your profile lives on this site’s own server.',
  '/account': 'Your wallet, your sessions and your profile on this site.',
  '/analytics': "Page views, sign-ins and events of this site, from its own server's records.",
  '/u/:address': 'A wallet address on this site.',
  '/admin': 'The console of this site’s team.',
  '/admin/:section': 'The console of this site’s team.',
  '*': 'There is no page at this address.',
}
