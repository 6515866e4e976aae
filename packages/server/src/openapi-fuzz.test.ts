import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FastifyInstance } from 'fastify'
import { errorCodes } from '@portico/sdk/wire'
import { buildServer } from './app.ts'
import { databaseKinds, signedIn, testConfig, testDatabase } from '../test/helpers.ts'
import type { DatabaseHandle, DatabaseKind } from './db/client.ts'

// Requests generated from our own OpenAPI document, then mutated: each operation gets values
// that fit its schemas (so requests reach the handlers), with one part broken on purpose (a
// wrong type, a missing or extra field, a value just past a bound, an odd string). Whatever
// arrives, the answer is never a 5xx. Deterministic (seeded).

type Schema = {
  type?: string | string[]
  enum?: unknown[]
  const?: unknown
  anyOf?: Schema[]
  oneOf?: Schema[]
  properties?: Record<string, Schema>
  required?: string[]
  items?: Schema
  minItems?: number
  maxItems?: number
  minLength?: number
  maxLength?: number
  minimum?: number
  maximum?: number
  pattern?: string
  format?: string
}
type Parameter = { in: 'path' | 'query' | 'header'; name: string; schema?: Schema }
type Operation = {
  method: string
  path: string
  parameters: Parameter[]
  body: Schema | undefined
}

function prng(seed: number) {
  return () => {
    seed = (seed * 1664525 + 1013904223) >>> 0
    return seed / 2 ** 32
  }
}

const odd: unknown[] = [
  null,
  true,
  -1,
  0.5,
  1e308,
  -0,
  '',
  ' ',
  'x'.repeat(5_000),
  '\u0000',
  '\ud800',
  '𝕦🦄',
  '../..',
  "'; drop table objects; --",
  [],
  {},
  [[[[[[]]]]]],
  { __proto__: null, $where: '1' },
]
/** Strings tried for a pattern; the first that fits is used. */
const candidates = [
  'Item',
  'abc_123',
  '42',
  '31337',
  '0x1234abcd',
  'a1b2c3d4-0000-4000-8000-000000000000',
  'AAAAAAAAAAAAAAAA_file.txt',
  'file.txt',
  '2026-11-23T10:00:00.000Z',
]

function operationsOf(document: {
  paths: Record<
    string,
    Record<
      string,
      { parameters?: Parameter[]; requestBody?: { content?: Record<string, { schema?: Schema }> } }
    >
  >
}): Operation[] {
  const operations: Operation[] = []
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      operations.push({
        method: method.toUpperCase(),
        path,
        parameters: op.parameters ?? [],
        body: op.requestBody?.content?.['application/json']?.schema,
      })
    }
  }
  return operations
}

function generator(seed: number) {
  const random = prng(seed)
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!
  const chance = (p: number) => random() < p

  /** A value that fits `schema`, as far as the generator can tell. */
  function valid(schema: Schema | undefined, depth = 0): unknown {
    if (!schema || depth > 6) return 'x'
    if (schema.enum) return pick(schema.enum)
    if (schema.const !== undefined) return schema.const
    const options = schema.anyOf ?? schema.oneOf
    if (options) return valid(pick(options), depth + 1)
    const type = Array.isArray(schema.type) ? pick(schema.type) : schema.type
    switch (type) {
      case 'object': {
        const value: Record<string, unknown> = {}
        for (const [name, property] of Object.entries(schema.properties ?? {})) {
          if (schema.required?.includes(name) || chance(0.5))
            value[name] = valid(property, depth + 1)
        }
        if (!schema.properties) value[pick(['n', 'name', 'score'])] = pick([1, 'a', true])
        return value
      }
      case 'array': {
        const length = Math.max(schema.minItems ?? 0, Math.floor(random() * 3))
        return Array.from({ length }, () => valid(schema.items, depth + 1))
      }
      case 'integer':
        return Math.max(
          schema.minimum ?? 0,
          Math.min(schema.maximum ?? 1_000, 1 + Math.floor(random() * 10)),
        )
      case 'number':
        return random() * 100
      case 'boolean':
        return chance(0.5)
      case 'string': {
        if (schema.format === 'date-time')
          return new Date(Date.now() - random() * 1e9).toISOString()
        if (schema.pattern) {
          const fits = candidates.filter((c) => new RegExp(schema.pattern!).test(c))
          return fits.length ? pick(fits) : 'x'
        }
        return pick(['Item', 'hello', 'a'.repeat(schema.minLength ?? 1)])
      }
      default:
        return pick(['x', 1, { a: 1 }])
    }
  }

  /** `value` with one thing broken. */
  function mutate(value: unknown, schema: Schema | undefined): unknown {
    if (chance(0.15)) return pick(odd)
    if (value && typeof value === 'object' && !Array.isArray(value)) {
      const object = { ...(value as Record<string, unknown>) }
      const keys = Object.keys(object)
      const roll = random()
      if (roll < 0.2 && schema?.required?.length) delete object[pick(schema.required)]
      else if (roll < 0.35)
        object[pick(['extra', 'admin', '__proto__', 'constructor', 'a'.repeat(300)])] = pick(odd)
      else if (keys.length) {
        const key = pick(keys)
        object[key] = mutate(object[key], schema?.properties?.[key])
      }
      return object
    }
    if (Array.isArray(value)) {
      if (chance(0.3) && schema?.maxItems !== undefined)
        return Array.from({ length: schema.maxItems + 1 }, () => valid(schema.items))
      if (value.length && chance(0.7)) {
        const copy = [...value]
        const at = Math.floor(random() * copy.length)
        copy[at] = mutate(copy[at], schema?.items)
        return copy
      }
      return [...value, pick(odd)]
    }
    if (typeof value === 'string') {
      if (schema?.maxLength !== undefined && chance(0.4)) return 'a'.repeat(schema.maxLength + 1)
      return pick([value + '\u0000', value.toUpperCase() + '%', '', pick(odd)])
    }
    if (typeof value === 'number') {
      return pick([
        (schema?.minimum ?? 0) - 1,
        (schema?.maximum ?? 2 ** 53) + 1,
        value + 0.5,
        Number.MAX_SAFE_INTEGER * 4,
        String(value),
      ])
    }
    return pick(odd)
  }

  return { random, pick, chance, valid, mutate }
}

const asText = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value))
function encode(text: string): string {
  try {
    return encodeURIComponent(text)
  } catch {
    return '%ED%A0%80'
  }
}

async function run(kind: DatabaseKind, count: number, seed: number) {
  const database: DatabaseHandle = await testDatabase(kind)
  const base = testConfig()
  const app: FastifyInstance = await buildServer({
    config: {
      ...base,
      app: { ...base.app, authRateLimit: 1e6, eventsRateLimit: 1e6, signedOutWriteRateLimit: 1e6 },
    },
    database,
    logger: false,
  })
  await app.ready()
  const operations = operationsOf((await app.inject('/api/openapi.json')).json())
  const { headers: auth } = await signedIn(app)
  const g = generator(seed)
  const answers: {
    code: unknown
    operation: string
    status: number
    request: string
    body: string
  }[] = []
  for (let i = 0; i < count; i++) {
    const op = g.pick(operations)
    const broken = g.chance(0.85)
    // Which part of the request is broken: a parameter or the body.
    const breakBody = op.body !== undefined && g.chance(0.6)
    const values = op.parameters.map((p) => {
      const value = g.valid(p.schema)
      return broken && !breakBody && g.chance(0.5) ? g.mutate(value, p.schema) : value
    })
    let url = op.path
    const query: string[] = []
    op.parameters.forEach((p, n) => {
      const text = encode(asText(values[n]).slice(0, 25_000))
      if (p.in === 'path') url = url.replace(`{${p.name}}`, text || 'x')
      else if (p.in === 'query' && (values[n] !== undefined || g.chance(0.5)))
        query.push(`${p.name}=${text}`)
    })
    if (query.length) url += `?${query.join('&')}`
    const headers: Record<string, string> = g.chance(0.6) ? { ...auth } : {}
    let payload: string | Buffer | undefined
    if (op.body) {
      const body = g.valid(op.body)
      payload = JSON.stringify(broken && breakBody ? g.mutate(body, op.body) : body) ?? 'null'
      headers['content-type'] = 'application/json'
    } else if (op.method === 'POST' && op.path.startsWith('/api/files')) {
      payload = Buffer.from(g.pick(['hello', '\u0000\u0001', '<html></html>', '%PDF-1.4']))
      headers['content-type'] = g.pick(['text/plain', 'application/pdf', 'text/html', 'x/y'])
    }
    if (g.chance(0.05)) headers['idempotency-key'] = g.pick(['k-1', '', 'k'.repeat(300)])
    const response = await app.inject({ method: op.method as 'GET', url, headers, payload })
    let code: unknown
    try {
      code = (response.json() as { error?: { code?: unknown } }).error?.code
    } catch {
      code = undefined
    }
    answers.push({
      code,
      operation: `${op.method} ${op.path}`,
      status: response.statusCode,
      request: `${op.method} ${url.slice(0, 160)} ${String(payload ?? '').slice(0, 160)}`,
      body: response.body.slice(0, 300),
    })
  }
  return { app, database, answers, operations }
}

describe.each(databaseKinds())('requests generated from the OpenAPI document on %s', (kind) => {
  let outcome: Awaited<ReturnType<typeof run>>
  beforeAll(async () => {
    outcome = await run(kind, 2_000, kind === 'pglite' ? 11 : 23)
  }, 300_000)
  afterAll(async () => {
    await outcome?.app.close()
    await outcome?.database.close()
  })

  it('answers 2,000 generated and mutated requests without a 5xx', () => {
    expect(outcome.answers).toHaveLength(2_000)
    expect(outcome.answers.filter((a) => a.status >= 500)).toEqual([])
  })

  it('covered every operation, and reached the handlers (successes as well as refusals)', () => {
    expect(outcome.operations.length).toBeGreaterThanOrEqual(15)
    expect(new Set(outcome.answers.map((a) => a.operation)).size).toBe(outcome.operations.length)
    const statuses = outcome.answers.map((a) => a.status)
    expect(statuses.filter((s) => s >= 200 && s < 300).length).toBeGreaterThan(200)
    expect(statuses.filter((s) => s === 400).length).toBeGreaterThan(200)
  })

  it('answers every refusal with one of the shared error codes', () => {
    const codes = outcome.answers.map((a) => a.code).filter((c) => typeof c === 'string')
    expect(codes.length).toBeGreaterThan(500)
    expect(codes.filter((c) => !(errorCodes as readonly unknown[]).includes(c))).toEqual([])
  })

  it('keeps serving afterwards', async () => {
    expect((await outcome.app.inject('/api/health')).statusCode).toBe(200)
  })
})
