import { prerenderToNodeStream } from 'react-dom/static'
import { App } from './app.tsx'
import { noopRevealController } from './reveal/reveal.ts'
import { resolvePage } from './shell/page-table.ts'
import { createStaticThemeStore } from './theme/theme-store.ts'
import { pageDescriptions } from './pages/page-descriptions.ts'
import { pages } from './pages/page-list.ts'
import { createPortico } from '@portico/sdk/portico'

function descriptionOf(path: string): string {
  const description = pageDescriptions[path]
  if (!description) throw new Error(`pages/page-descriptions.ts has no description for ${path}`)
  return description
}

/** One page of the page table as the server needs it to answer a path with the right HTML. */
export interface RouteRow {
  path: string
  title: string
  description: string
  bodyClass: string
  /** Listed in sitemap.xml (no parameters, no sign-in needed). */
  index: boolean
  /** Open to crawlers (robots.txt): every page but the console. */
  crawl: boolean
  /** What each parameter must look like (regular expression source); else the path is Not found. */
  params?: Record<string, string>
}

/** The page table without its components (scripts/build.mjs writes it to routes.json). */
export function routeTable(): RouteRow[] {
  return pages.map(({ path, title, bodyClass, auth, team, crawl, paramPatterns }) => ({
    path,
    title,
    description: descriptionOf(path),
    bodyClass,
    // Pages behind a sign-in have nothing for a search result: out of the sitemap.
    index: path !== '*' && !path.includes(':') && auth !== 'required' && !team,
    crawl: crawl !== false,
    ...(paramPatterns ? { params: paramPatterns } : {}),
  }))
}

/** What the build injects into index.html for one pre-rendered path. */
export interface PrerenderResult {
  html: string
  title: string
  description: string
  bodyClass: string
}

/**
 * Renders one path to HTML at build time (scripts/build.mjs). `prerender` waits for lazily loaded
 * pages, unlike `renderToString`, so the page's full content ends up in the HTML.
 */
export async function prerender(path: string): Promise<PrerenderResult> {
  // Never started: the pre-rendered page shows the state before the session is known.
  const portico = createPortico({ serverUrl: 'http://localhost', appId: 'portico', chains: [] })
  const services = { theme: createStaticThemeStore(), reveal: noopRevealController, portico }
  const { prelude } = await prerenderToNodeStream(<App services={services} ssrPath={path} />)
  const chunks: Buffer[] = []
  for await (const chunk of prelude) chunks.push(Buffer.from(chunk as Uint8Array))
  const page = resolvePage(pages, path)
  return {
    html: Buffer.concat(chunks).toString('utf8'),
    title: page.title,
    description: descriptionOf(page.path),
    bodyClass: page.bodyClass,
  }
}
