// The site's identity, in one place: a team that forks the shell starts here. Colours are CSS
// custom properties in site.css; the Home page's words are in home-content.ts; pages themselves
// are rows of the page table (pages/page-list.ts).

export interface SiteConfig {
  /** Shown in the header, in every page title and in link previews. */
  name: string
  /** An image in `public/` (e.g. `/logo.svg`) shown before the name in the header; none → name only. */
  logo?: string | undefined
  /** Paths of the page table to leave out of this site (e.g. `['/analytics']`). */
  hiddenPages: readonly string[]
  footer: {
    text: string
    links: readonly { label: string; href: string }[]
  }
}

export const site: SiteConfig = {
  name: 'Portico',
  logo: undefined,
  hiddenPages: [],
  footer: {
    text: 'self-hosted, no third-party requests on load.',
    links: [{ label: 'API documentation', href: '/api/docs' }],
  },
}

/** A page title in the site's pattern: `Account · Portico`. */
export const pageTitle = (page: string) => `${page} · ${site.name}`
