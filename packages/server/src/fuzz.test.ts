import type { RouteOptions } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildServer } from './app.ts'
import { databaseKinds, signedIn, testConfig, testDatabase } from '../test/helpers.ts'
import { signIn } from '../test/siwe.ts'
import type { DatabaseHandle, DatabaseKind } from './db/client.ts'

// at least 1,000 malformed or odd requests across every route: no 5xx, no stack
// trace, and the server keeps answering normal requests afterwards. Deterministic (seeded).

function prng(seed: number) {
  return () => {
    seed = (seed * 1664525 + 1013904223) >>> 0
    return seed / 2 ** 32
  }
}

const oddStrings = [
  '',
  ' ',
  'x'.repeat(70_000),
  '\u0000\u0001\u0002',
  '𝕦𝕟𝕚𝕔𝕠𝕕𝕖 ✓ 🦄 עברית',
  '../../etc/passwd',
  '%00%ff%2e%2e',
  "'; drop table users; --",
  '<script>alert(1)</script>',
  '{"$where":"1"}',
  '0x',
  '-1',
  '1e309',
  'NaN',
  '\ud800',
]
const oddValues: unknown[] = [
  null,
  true,
  0,
  -1,
  1e308,
  [],
  {},
  [[[[[[[[[[[]]]]]]]]]]],
  { __proto__: { admin: true } },
  { constructor: { prototype: { x: 1 } } },
  ...oddStrings,
]

/** Percent-encodes, keeping even a lone surrogate (as raw bytes a client could send). */
function encodeSafe(text: string): string {
  try {
    return encodeURIComponent(text)
  } catch {
    return '%ED%A0%80'
  }
}

async function fuzz(kind: DatabaseKind, count: number) {
  const routes: { method: string; url: string }[] = []
  const database: DatabaseHandle = await testDatabase(kind)
  const base = testConfig()
  const app = await buildServer({
    config: {
      ...base,
      app: { ...base.app, authRateLimit: 1e6, eventsRateLimit: 1e6, signedOutWriteRateLimit: 1e6 },
    },
    database,
    logger: false,
    onRoute: (route: RouteOptions) => {
      for (const method of [route.method].flat())
        if (method !== 'HEAD') routes.push({ method, url: route.url })
    },
  })
  await app.ready()
  const { headers: auth } = await signedIn(app)
  const random = prng(kind === 'pglite' ? 42 : 7)
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!
  const oddPath = (url: string) =>
    url.replace(/:([A-Za-z0-9_]+)/g, () => encodeSafe(pick(oddStrings).slice(0, 300)) || 'x')

  const results: { status: number; body: string; request: string }[] = []
  for (let i = 0; i < count; i++) {
    const route = pick(routes)
    const method =
      random() < 0.8 ? route.method : pick(['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'])
    const headers: Record<string, string> = {}
    if (random() < 0.3) Object.assign(headers, auth)
    if (random() < 0.1)
      headers.authorization = pick([
        'Bearer',
        'Bearer \u00ff',
        'Basic abc',
        'Bearer ' + 'a'.repeat(5000),
      ])
    if (random() < 0.1)
      headers.cookie = pick([
        'portico_session=',
        'portico_session=%%%',
        'a=b; portico_session=x'.repeat(50),
      ])
    if (random() < 0.1)
      headers.origin = pick(['null', 'http://127.0.0.1:3000', 'https://evil.example', '\u00e9'])
    if (random() < 0.1) headers['idempotency-key'] = pick(['', ' ', 'k'.repeat(300), 'ok-key'])
    let payload: string | undefined
    const shape = random()
    if (method !== 'GET' && method !== 'DELETE' && method !== 'OPTIONS') {
      if (shape < 0.25) {
        payload = pick([
          '{',
          '{"a":',
          '[1,2',
          'nul',
          '\u0000',
          '{"a":1}}',
          '"just a string"',
          '{"__proto__":{"x":1}}',
        ])
        headers['content-type'] = 'application/json'
      } else if (shape < 0.7) {
        const body: Record<string, unknown> = {}
        for (const key of [
          'message',
          'signature',
          'mode',
          'subdomain',
          'event',
          'options',
          'data',
          'requests',
          'publicRead',
        ]) {
          if (random() < 0.5) body[key] = pick(oddValues)
        }
        payload = JSON.stringify(body)
        headers['content-type'] = pick([
          'application/json',
          'application/json; charset=utf-8',
          'text/plain',
        ])
      } else if (shape < 0.8) {
        payload = 'x'.repeat(pick([10, 2_000_000]))
        headers['content-type'] = pick([
          'application/octet-stream',
          'image/png',
          'application/x-www-form-urlencoded',
        ])
      }
    }
    const query =
      random() < 0.3
        ? `?${pick(['where={', 'limit=-1', 'from=x&to=y', 'bucket=%00', 'a[b]=1', 'where=' + encodeURIComponent('{"$regex":"("}')])}`
        : ''
    const url = oddPath(route.url) + query
    const response = await app.inject({ method: method as 'GET', url, headers, payload })
    results.push({
      status: response.statusCode,
      body: response.body.slice(0, 500),
      request: `${method} ${url.slice(0, 120)}`,
    })
  }
  return { app, database, results }
}

describe.each(databaseKinds())('fuzzing every route on %s', (kind) => {
  let run: Awaited<ReturnType<typeof fuzz>>
  beforeAll(async () => {
    run = await fuzz(kind, 1200)
  }, 300_000)
  afterAll(async () => {
    await run?.app.close()
    await run?.database.close()
  })

  it('answers 1,200 odd requests without a 5xx or a stack trace', () => {
    expect(run.results).toHaveLength(1200)
    const serverErrors = run.results.filter((r) => r.status >= 500)
    expect(serverErrors).toEqual([])
    const leaks = run.results.filter((r) => /node_modules|\.ts:\d+|at [\w.]+ \(/.test(r.body))
    expect(leaks).toEqual([])
    // The fuzz reached past validation into the handlers too, not only 400s.
    expect(new Set(run.results.map((r) => r.status)).size).toBeGreaterThan(5)
  })

  it('answers 400, not 500, for a value the database cannot store (NUL in text)', async () => {
    const { headers } = await signedIn(run.app)
    for (const payload of [{ data: { a: 'x\u0000y' } }, { a: 'x\u0000y' }]) {
      const response = await run.app.inject({
        method: 'POST',
        url: '/api/classes/Thing',
        headers,
        payload,
      })
      expect(response.statusCode).toBeLessThan(500)
    }
  })

  it('keeps answering normal requests afterwards', async () => {
    expect((await run.app.inject('/api/health')).statusCode).toBe(200)
    const { response } = await signIn(run.app)
    expect(response.statusCode).toBe(200)
  })
})
