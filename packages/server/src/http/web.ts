import fs from 'node:fs'
import path from 'node:path'
import type { FastifyInstance } from 'fastify'
import fastifyStatic from '@fastify/static'

/**
 * Serves the built web app: hashed assets are immutable, HTML is revalidated, and every path
 * that is not a file falls back to `index.html` so the client-side router can resolve it.
 * Unknown `/api/*` paths get a JSON 404 instead.
 */
export async function webRoutes(
  app: FastifyInstance,
  opts: { webDir: string | undefined },
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

  // Every other GET is a client-side route: a real route (not the not-found handler) so that
  // compression and the other per-route hooks apply to the HTML too.
  app.get('/*', { schema: { hide: true } }, async (request, reply) => {
    const url = request.url.split('?')[0] ?? '/'
    if (url === '/api' || url.startsWith('/api/'))
      return reply.status(404).send(notFound(request.method, url))
    return reply
      .header('cache-control', 'no-cache')
      .type('text/html; charset=utf-8')
      .send(fs.createReadStream(path.join(webDir, pageFor(webDir, url))))
  })
}

/** A pre-rendered page (`/about` → `about/index.html`) when the build made one, else the SPA shell. */
function pageFor(webDir: string, url: string): string {
  const clean = path.posix.normalize(decodeURIComponentSafe(url)).replace(/^\/+|\/+$/g, '')
  if (clean && !clean.includes('..')) {
    const candidate = path.join(clean, 'index.html')
    if (fs.existsSync(path.join(webDir, candidate))) return candidate
  }
  return 'index.html'
}

function decodeURIComponentSafe(value: string): string {
  try {
    return decodeURIComponent(value)
  } catch {
    return value
  }
}
