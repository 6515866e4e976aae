import { createHash } from 'node:crypto'
import { validate } from '@readme/openapi-parser'
import type { RouteOptions } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildServer } from '../app.ts'
import { testConfig, testDatabase } from '../../test/helpers.ts'
import type { DatabaseHandle } from '../db/client.ts'

describe('API description, docs page and version', () => {
  const routes: { method: string; url: string }[] = []
  let database: DatabaseHandle
  let app: Awaited<ReturnType<typeof buildServer>>
  beforeAll(async () => {
    database = await testDatabase('pglite')
    app = await buildServer({
      config: testConfig(),
      database,
      logger: false,
      onRoute: (route: RouteOptions) => {
        for (const method of [route.method].flat()) routes.push({ method, url: route.url })
      },
    })
    await app.ready()
  })
  afterAll(async () => {
    await app.close()
    await database.close()
  })

  it('publishes an OpenAPI 3.1 document that a real validator accepts', async () => {
    const response = await app.inject('/api/openapi.json')
    expect(response.statusCode).toBe(200)
    const doc = response.json()
    expect(doc.openapi).toBe('3.1.0')
    const result = await validate(structuredClone(doc))
    expect(result.valid ? [] : result.errors).toEqual([])
    expect(result.valid).toBe(true)
  })

  it('lists every route the server registers, each with tags and a summary', async () => {
    const doc = (await app.inject('/api/openapi.json')).json()
    const apiRoutes = routes.filter((r) => r.method !== 'HEAD')
    expect(apiRoutes.length).toBeGreaterThan(15)
    const missing = apiRoutes.filter((route) => {
      const path = route.url.replace(/:([A-Za-z0-9_]+)/g, '{$1}').replace(/\*$/, '{*}')
      const op = doc.paths?.[path]?.[route.method.toLowerCase()]
      return !op || !op.summary || !op.tags?.length
    })
    expect(missing).toEqual([])
    for (const path of ['/api/auth/verify', '/api/events', '/api/version', '/api/docs']) {
      expect(Object.keys(doc.paths)).toContain(path)
    }
  })

  it('serves a readable docs page with only its theme script (allowed by hash) and no outside host', async () => {
    const response = await app.inject('/api/docs')
    expect(response.statusCode).toBe(200)
    expect(response.headers['content-type']).toMatch(/^text\/html/)
    const html = response.body
    expect(html).toContain('POST')
    expect(html).toContain('/api/auth/verify')
    expect(html).toContain('Sign in with a signed EIP-4361 message')
    const scripts = [...html.matchAll(/<script>([\s\S]*?)<\/script>/gi)].map((m) => m[1]!)
    expect(scripts).toHaveLength(1)
    // The reference's scripts are this server's own files.
    const sources = [...html.matchAll(/<script src="([^"]+)"/gi)].map((m) => m[1])
    expect(sources).toEqual(['/api/docs/reference.js', '/api/docs/start.js'])
    expect(html).toContain('<link rel="icon" href="/favicon.svg"')
    for (const source of sources) {
      const answer = await app.inject(source!)
      expect(answer.statusCode, source).toBe(200)
      expect(answer.headers['content-type']).toMatch(/^text\/javascript/)
    }
    expect((await app.inject('/api/docs/start.js')).body).toContain('createApiReference')
    expect(scripts[0]).toContain("localStorage.getItem('theme')")
    expect(html).not.toMatch(/(src|href)="https?:/i)
    const hash = createHash('sha256').update(scripts[0]!).digest('base64')
    const scriptSrc = String(response.headers['content-security-policy'])
      .split(';')
      .find((d) => d.trim().startsWith('script-src'))
    expect(scriptSrc?.trim()).toBe(`script-src 'self' 'sha256-${hash}'`)
    expect(String(response.headers['content-security-policy'])).toContain("connect-src 'self';")
  })

  it('answers the server and SDK versions', async () => {
    const response = await app.inject('/api/version')
    expect(response.json()).toEqual({ server: '0.1.0', sdk: { latest: '1.5.9', minimum: '1.0.0' } })
  })

  it('sends security headers on API answers', async () => {
    const response = await app.inject('/api/health')
    expect(response.headers['x-content-type-options']).toBe('nosniff')
    expect(response.headers['x-frame-options']).toBe('DENY')
    expect(String(response.headers['content-security-policy'])).toContain("default-src 'none'")
    expect(response.headers['referrer-policy']).toBe('strict-origin-when-cross-origin')
  })
})
