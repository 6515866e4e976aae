import type { ComponentType, LazyExoticComponent } from 'react'

/** One row of the page table (the wrapper, not the router, knows the pages). */
export interface PageDefinition {
  /** Exact path (`/account`), or `*` for the page shown when nothing else matches. */
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
}

/** Fallback path for the "Not found" page. */
export const NOT_FOUND_PATH = '*'

/** `/account/` and `/account` are the same page; the root stays `/`. */
export function normalizePath(pathname: string): string {
  const trimmed = pathname.replace(/\/+$/, '')
  return trimmed === '' ? '/' : trimmed
}

/**
 * The page for a path: an exact match, else the `*` page.
 * @throws when the table has no `*` page and nothing matches (a programming error).
 */
export function resolvePage(pages: readonly PageDefinition[], pathname: string): PageDefinition {
  const path = normalizePath(pathname)
  const page =
    pages.find((candidate) => candidate.path === path) ??
    pages.find((candidate) => candidate.path === NOT_FOUND_PATH)
  if (!page) throw new Error(`The page table has no page for ${path} and no "*" page`)
  return page
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
