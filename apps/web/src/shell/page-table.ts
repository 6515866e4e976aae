import type { ComponentType, LazyExoticComponent } from 'react'

/** One row of the page table (the wrapper, not the router, knows the pages). */
export interface PageDefinition {
  /**
   * Exact path (`/account`), a pattern with parameters (`/u/:address`, read with
   * `usePageParams`), or `*` for the page shown when nothing else matches (answered with 404).
   */
  path: string
  /** Full document title. */
  title: string
  /** Class put on `<body>` while this page is shown. */
  bodyClass: string
  /** Loaded on first visit; the loading state shows meanwhile. */
  component: LazyExoticComponent<ComponentType>
  /** Label in the header navigation; absent → not in the navigation. */
  navLabel?: string
  /** `required` → only for signed-in users; others are asked to sign in. */
  auth?: 'required'
  /** The page's main heading, shown on the sign-in prompt of an `auth: 'required'` page. */
  heading?: string
  /**
   * For the site's team only (the console, the analytics): linked in the navigation only for
   * users with a console role, and kept out of the sitemap.
   */
  team?: boolean
  /**
   * False keeps search engines out (robots.txt): the console. Other pages may be fetched, even
   * when they ask to sign in, so that a link to them gets a proper title and description.
   */
  crawl?: boolean
  /**
   * What each parameter must look like (a regular expression's source, whole value): a path
   * whose parameter does not match is not this page, so it gets the Not found page and 404.
   * Plain strings, so the server can apply the same rules from routes.json.
   */
  paramPatterns?: Record<string, string>
}

/** Fallback path for the "Not found" page. */
export const NOT_FOUND_PATH = '*'

/** `/account/` and `/account` are the same page; the root stays `/`. */
export function normalizePath(pathname: string): string {
  const trimmed = pathname.replace(/\/+$/, '')
  return trimmed === '' ? '/' : trimmed
}

/** The parameters of a path pattern, typed: `PathParams<'/u/:address'>` is `{ address: string }`. */
export type PathParams<Pattern extends string> =
  Pattern extends `${string}:${infer Name}/${infer Rest}`
    ? { [K in Name]: string } & PathParams<`/${Rest}`>
    : Pattern extends `${string}:${infer Name}`
      ? { [K in Name]: string }
      : Record<never, string>

/**
 * Matches a path against a pattern segment by segment; `:name` takes one non-empty segment.
 * Returns the decoded parameters, or null when the path does not match.
 */
export function matchPath(
  pattern: string,
  pathname: string,
  paramPatterns: Record<string, string> = {},
): Record<string, string> | null {
  const want = normalizePath(pattern).split('/')
  const have = normalizePath(pathname).split('/')
  if (want.length !== have.length) return null
  const params: Record<string, string> = {}
  for (const [index, segment] of want.entries()) {
    const actual = have[index]!
    if (segment.startsWith(':')) {
      if (actual === '') return null
      try {
        params[segment.slice(1)] = decodeURIComponent(actual)
      } catch {
        return null
      }
      const rule = paramPatterns[segment.slice(1)]
      if (rule !== undefined && !new RegExp(`^(?:${rule})$`).test(params[segment.slice(1)]!)) {
        return null
      }
    } else if (segment !== actual) return null
  }
  return params
}

/**
 * The page for a path and its parameters: an exact path first, then a pattern, else the `*` page.
 * @throws when the table has no `*` page and nothing matches (a programming error).
 */
export function matchPage(
  pages: readonly PageDefinition[],
  pathname: string,
): { page: PageDefinition; params: Record<string, string> } {
  const path = normalizePath(pathname)
  const exact = pages.find((candidate) => candidate.path === path)
  if (exact) return { page: exact, params: {} }
  for (const page of pages) {
    const params = page.path.includes(':') && matchPath(page.path, path, page.paramPatterns)
    if (params) return { page, params }
  }
  const page = pages.find((candidate) => candidate.path === NOT_FOUND_PATH)
  if (!page) throw new Error(`The page table has no page for ${path} and no "*" page`)
  return { page, params: {} }
}

/** The page for a path (see `matchPage`). */
export function resolvePage(pages: readonly PageDefinition[], pathname: string): PageDefinition {
  return matchPage(pages, pathname).page
}

/**
 * Puts the current page's class on `<body>` and removes every other page's class, leaving classes
 * that do not belong to any page alone. Removing all page classes rather than only
 * "the previous one" also clears the class the pre-rendered HTML starts with.
 */
export function syncBodyClass(
  classList: DOMTokenList,
  pages: readonly PageDefinition[],
  current: PageDefinition,
): void {
  for (const page of pages) {
    if (page.bodyClass !== current.bodyClass) classList.remove(page.bodyClass)
  }
  classList.add(current.bodyClass)
}
