import fs from 'node:fs'
import path from 'node:path'
import type { FastifyInstance } from 'fastify'
import fastifyStatic from '@fastify/static'

/** A page of the built app's page table (`routes.json`, written by the web build). */
interface Route {
  path: string
  file: string
  status: number
  index: boolean
  /** Open to crawlers; absent in older builds, where pages out of the sitemap were closed. */
  crawl?: boolean
  /** What each parameter must look like (regular expression source, whole value). */
  params?: Record<string, string>
}

/**
 * Serves the built web app: hashed assets are immutable, HTML is revalidated. A path is answered
 * with its page's own HTML (title, description and link previews in the head) by the page table
 * the build wrote to `routes.json`; a path no page matches gets the Not found page with 404.
 * `robots.txt` and `sitemap.xml` come from the same table. Unknown `/api/*` paths get a JSON 404.
 */
export async function webRoutes(
  app: FastifyInstance,
  opts: { webDir: string | undefined; publicOrigin: string },
): Promise<void> {
  const webDir =
    opts.webDir && fs.existsSync(path.join(opts.webDir, 'index.html')) ? opts.webDir : undefined
  if (webDir) {
    await app.register(fastifyStatic, {
      root: webDir,
      wildcard: false,
      index: false,
      cacheControl: false, // ours below: the plugin's default would overwrite it
      setHeaders(res, filePath) {
        const hashed = filePath.includes(`${path.sep}assets${path.sep}`)
        res.setHeader('cache-control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache')
      },
    })
  }
  const notFound = (method: string, url: string) => ({
    error: { code: 'not_found', message: `No route for ${method} ${url}.` },
  })
  app.setNotFoundHandler(async (request, reply) =>
    reply.status(404).send(notFound(request.method, request.url.split('?')[0] ?? '/')),
  )
  if (!webDir) return
  const routes = readRoutes(webDir)
  const origin = opts.publicOrigin.replace(/\/+$/, '')

  if (routes && !fs.existsSync(path.join(webDir, 'robots.txt'))) {
    app.get('/robots.txt', { schema: { hide: true } }, async (_request, reply) => {
      const closed = routes.filter(
        (r) => !(r.crawl ?? r.index) && r.path !== '*' && !r.path.includes(':'),
      )
      const lines = [
        'User-agent: *',
        'Allow: /',
        'Disallow: /api/',
        ...closed.map((r) => `Disallow: ${r.path}`),
        `Sitemap: ${origin}/sitemap.xml`,
      ]
      return reply.type('text/plain; charset=utf-8').send(`${lines.join('\n')}\n`)
    })
  }
  if (routes && !fs.existsSync(path.join(webDir, 'sitemap.xml'))) {
    app.get('/sitemap.xml', { schema: { hide: true } }, async (_request, reply) => {
      const urls = routes
        .filter((r) => r.index)
        .map((r) => `  <url><loc>${escapeXml(origin + r.path)}</loc></url>`)
      const xml = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
        ...urls,
        '</urlset>',
      ]
      return reply.type('application/xml; charset=utf-8').send(`${xml.join('\n')}\n`)
    })
  }

  // Every other GET is a client-side route: a real route (not the not-found handler) so that
  // compression and the other per-route hooks apply to the HTML too.
  app.get('/*', { schema: { hide: true } }, async (request, reply) => {
    const url = request.url.split('?')[0] ?? '/'
    if (url === '/api' || url.startsWith('/api/'))
      return reply.status(404).send(notFound(request.method, url))
    const route = routes ? routeFor(routes, url) : undefined
    return reply
      .status(route?.status ?? 200)
      .header('cache-control', 'no-cache')
      .type('text/html; charset=utf-8')
      .send(fs.createReadStream(path.join(webDir, route?.file ?? 'index.html')))
  })
}

/** The build's page table; absent (an older build) → every path gets index.html. */
function readRoutes(webDir: string): Route[] | undefined {
  const file = path.join(webDir, 'routes.json')
  if (!fs.existsSync(file)) return undefined
  const routes = JSON.parse(fs.readFileSync(file, 'utf8')) as Route[]
  for (const route of routes) {
    const target = path.resolve(webDir, route.file)
    if (!target.startsWith(webDir + path.sep) || !fs.existsSync(target))
      throw new Error(`routes.json names a missing page: ${route.file}`)
  }
  return routes
}

const segmentsOf = (url: string) => url.replace(/\/+$/, '').split('/').slice(1)

/** Same rules as the app's page table: an exact path, then a pattern (`:name` = one segment), then `*`. */
function routeFor(routes: Route[], url: string): Route | undefined {
  const path = url.replace(/\/+$/, '') || '/'
  const exact = routes.find((r) => r.path === path)
  if (exact) return exact
  const have = segmentsOf(path)
  const pattern = routes.find((r) => {
    if (!r.path.includes(':')) return false
    const want = segmentsOf(r.path)
    return (
      want.length === have.length &&
      want.every((segment, i) => {
        if (!segment.startsWith(':')) return segment === have[i]
        const rule = r.params?.[segment.slice(1)]
        return have[i] !== '' && (rule === undefined || paramMatches(rule, have[i]!))
      })
    )
  })
  return pattern ?? routes.find((r) => r.path === '*')
}

/** A parameter against its rule; a segment that does not decode matches nothing. */
function paramMatches(rule: string, segment: string): boolean {
  try {
    return new RegExp(`^(?:${rule})$`).test(decodeURIComponent(segment))
  } catch {
    return false
  }
}

const escapeXml = (text: string) => text.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`)
