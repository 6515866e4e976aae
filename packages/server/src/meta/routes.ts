import { createHash } from 'node:crypto'
import { docsThemeScript, renderDocsPage } from '../http/docs-page.ts'
import { contentSecurityPolicy } from '../http/security-headers.ts'
import { serverVersion } from '../version.ts'
import { routePlugin } from '../http/route-plugin.ts'

/** `GET /api/version`, the OpenAPI document and its docs page. */
export const metaRoutes = routePlugin('portico-meta', [], async function metaRoutes(app, services) {
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
  const docsPolicy = contentSecurityPolicy([
    `'sha256-${createHash('sha256').update(docsThemeScript).digest('base64')}'`,
  ])
  app.get(
    '/api/docs',
    {
      schema: {
        tags: ['meta'],
        summary: 'Readable API documentation (HTML, no scripts)',
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
})
