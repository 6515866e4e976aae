import { createHash } from 'node:crypto'
import fs from 'node:fs'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'
import { docsStartScript, docsThemeScript, renderDocsPage } from '../http/docs-page.ts'
import { notFound } from '../errors.ts'
import { contentSecurityPolicy } from '../http/security-headers.ts'
import { serverVersion } from '../version.ts'
import { routePlugin } from '../http/route-plugin.ts'
import type { ServerConfig } from '../config/server.ts'

/** The services these routes use. */
export type MetaNeeds = { config: ServerConfig }

/** `GET /api/version`, the OpenAPI document and its docs page. */
export const metaRoutes = routePlugin(
  'portico-meta',
  [],
  async function metaRoutes(app, services: MetaNeeds) {
    const { sdkLatest, sdkMinimum } = services.config.app
    app.get(
      '/api/version',
      {
        schema: {
          tags: ['meta'],
          summary: 'Server version and the latest and minimum SDK versions',
          response: {
            200: {
              type: 'object',
              properties: {
                server: { type: 'string' },
                sdk: {
                  type: 'object',
                  properties: { latest: { type: 'string' }, minimum: { type: 'string' } },
                  required: ['latest', 'minimum'],
                },
              },
              required: ['server', 'sdk'],
            },
          },
        },
      },
      async () => ({ server: serverVersion, sdk: { latest: sdkLatest, minimum: sdkMinimum } }),
    )

    app.get(
      '/api/openapi.json',
      {
        schema: {
          tags: ['meta'],
          summary: 'This API described as OpenAPI 3.1, generated from the route schemas',
          response: { 200: { type: 'object', additionalProperties: true } },
        },
      },
      async () => app.swagger(),
    )

    // Rendered once, on first request: the document only changes with the code.
    let page: string | undefined
    // The reference talks to this server only: nothing it loads or sends leaves it.
    const docsPolicy = contentSecurityPolicy([
      `'sha256-${createHash('sha256').update(docsThemeScript).digest('base64')}'`,
    ]).replace(/connect-src [^;]*/, "connect-src 'self'")
    const reference = referenceBundle()
    const script = { 200: { type: 'string', description: 'JavaScript' } } as const
    app.get(
      '/api/docs/reference.js',
      {
        schema: {
          tags: ['meta'],
          summary: "The API reference's script (Scalar, from this server's own copy)",
          response: { ...script, 404: { type: 'object', additionalProperties: true } },
        },
      },
      async (_request, reply) => {
        if (!reference) throw notFound('This server was built without the API reference script.')
        return reply
          .type('text/javascript; charset=utf-8')
          .header('cache-control', 'public, max-age=86400')
          .send(fs.createReadStream(reference))
      },
    )
    app.get(
      '/api/docs/start.js',
      {
        schema: {
          tags: ['meta'],
          summary: 'Starts the API reference on the docs page, in the theme the visitor chose',
          response: script,
        },
      },
      async (_request, reply) =>
        reply
          .type('text/javascript; charset=utf-8')
          .header('cache-control', 'no-cache')
          .send(docsStartScript),
    )
    app.get(
      '/api/docs',
      {
        schema: {
          tags: ['meta'],
          summary: 'API reference (HTML: plain without scripts, searchable with try-it with them)',
          produces: ['text/html'],
          response: { 200: { type: 'string', description: 'An HTML page' } },
        },
      },
      async (_request, reply) => {
        page ??= renderDocsPage(app.swagger() as Parameters<typeof renderDocsPage>[0])
        return reply
          .type('text/html; charset=utf-8')
          .header('cache-control', 'no-cache')
          .header('content-security-policy', docsPolicy)
          .send(page)
      },
    )
  },
)

/**
 * Scalar's browser bundle: copied beside the built server (build.mjs), or from its npm package
 * when the server runs from its sources. Undefined when neither is there: the page stays plain.
 */
function referenceBundle(): string | undefined {
  const built = fileURLToPath(new URL('./api-reference.js', import.meta.url))
  if (fs.existsSync(built)) return built
  try {
    return createRequire(import.meta.url).resolve('@scalar/api-reference/browser/standalone.js')
  } catch {
    // Not installed (an API-only build without dev dependencies): the plain page is served.
    return undefined
  }
}
