import type { FastifyInstance } from 'fastify'
import { getAddress } from 'viem'
import { beforeAll, describe, expect, it } from 'vitest'
import { databaseKinds, signedIn, testApp, testConfig } from '../../test/helpers.ts'

// Every console operation, as the OpenAPI document lists them (so a new route is covered the
// day it is added), called by everyone who may not use it: access is decided before the body
// is read, so a valid body and a broken one get the same refusal.

const ADMIN = getAddress(`0x${'a1'.repeat(20)}`)
const VIEWER = getAddress(`0x${'b2'.repeat(20)}`)

/** A body each console write accepts; a write missing here fails the test. */
const validBodies: Record<string, { body: unknown; contentType?: string }> = {
  'POST /api/admin/api-keys': { body: { label: 'deploys' } },
  'PUT /api/admin/classes/{className}/{objectId}': { body: { data: { title: 'x' } } },
  'POST /api/admin/classes/{className}/fields': { body: { name: 'rating', type: 'number' } },
  'POST /api/admin/classes/{className}/delete': { body: { ids: ['abc'] } },
  'POST /api/admin/roles': { body: { name: 'Editors' } },
  'PUT /api/admin/roles/{name}': { body: { add: { users: [] } } },
  'POST /api/admin/import/{className}': { body: '[]', contentType: 'application/json' },
  'POST /api/admin/cloud/jobs/{name}': { body: { params: {} } },
  'POST /api/admin/classes': { body: { name: 'Fresh' } },
  'POST /api/admin/classes/{className}': { body: { data: { title: 'x' } } },
}

/** Path parameters, each valid for its route's pattern. */
const params: Record<string, string> = {
  className: 'Note',
  objectId: 'abc123',
  name: 'Editors',
  field: 'rating',
  userId: 'user1',
  sessionId: 'session1',
  keyId: 'key1',
  tableName: 'Watched',
}

interface Operation {
  method: string
  path: string
  url: string
  hasBody: boolean
}

describe.each(databaseKinds())('console access on %s', (kind) => {
  let app: FastifyInstance
  let operations: Operation[]
  const people: Record<'visitor' | 'stranger' | 'viewer', Record<string, string>> = {
    visitor: {},
    stranger: {},
    viewer: {},
  }
  beforeAll(async () => {
    const base = testConfig()
    ;({ app } = await testApp(kind, {
      app: { ...base.app, adminAddresses: [ADMIN], viewerAddresses: [VIEWER] },
    }))
    people.stranger = (await signedIn(app)).headers
    people.viewer = (await signedIn(app, VIEWER)).headers
    const doc = (await app.inject('/api/openapi.json')).json() as {
      paths: Record<string, Record<string, { requestBody?: unknown }>>
    }
    operations = Object.entries(doc.paths)
      .filter(([path]) => path.startsWith('/api/admin/'))
      .flatMap(([path, methods]) =>
        Object.entries(methods).map(([method, op]) => ({
          method: method.toUpperCase(),
          path,
          url: path.replace(/\{(\w+)\}/g, (_m, name: string) => params[name] ?? 'x1'),
          hasBody: op.requestBody !== undefined || path === '/api/admin/import/{className}',
        })),
      )
  })

  const send = (op: Operation, headers: Record<string, string>, body?: 'valid' | 'invalid') => {
    const valid = validBodies[`${op.method} ${op.path}`]
    return app.inject({
      method: op.method as 'GET',
      url: op.url,
      headers: {
        ...headers,
        ...(body ? { 'content-type': valid?.contentType ?? 'application/json' } : {}),
      },
      ...(body === 'valid'
        ? { payload: typeof valid!.body === 'string' ? valid!.body : JSON.stringify(valid!.body) }
        : body === 'invalid'
          ? { payload: '{"unexpected": [1, 2' }
          : {}),
    })
  }

  it('finds the console operations in the OpenAPI document, with a valid body for each write', () => {
    expect(operations.length).toBeGreaterThanOrEqual(25)
    const writes = operations.filter((op) => op.hasBody).map((op) => `${op.method} ${op.path}`)
    expect(writes.sort()).toEqual(Object.keys(validBodies).sort())
  })

  it('answers a visitor 401 on every operation, with or without a body', async () => {
    for (const op of operations)
      for (const body of op.hasBody ? (['valid', 'invalid', undefined] as const) : [undefined]) {
        const answer = await send(op, people.visitor, body)
        expect(answer.statusCode, `${op.method} ${op.url} (${body ?? 'no'} body)`).toBe(401)
        expect(answer.json().error.code).toBe('unauthorized')
      }
  })

  it('answers a signed-in stranger 403 admin_only on every operation', async () => {
    for (const op of operations)
      for (const body of op.hasBody ? (['valid', 'invalid', undefined] as const) : [undefined]) {
        const answer = await send(op, people.stranger, body)
        expect(answer.statusCode, `${op.method} ${op.url} (${body ?? 'no'} body)`).toBe(403)
        expect(answer.json().error.code).toBe('admin_only')
      }
  })

  it('answers a viewer 403 read_only on every change, and lets them read', async () => {
    for (const op of operations) {
      if (op.method === 'GET') {
        const answer = await send(op, people.viewer)
        expect([401, 403], `${op.method} ${op.url}`).not.toContain(answer.statusCode)
        continue
      }
      for (const body of op.hasBody ? (['valid', 'invalid', undefined] as const) : [undefined]) {
        const answer = await send(op, people.viewer, body)
        expect(answer.statusCode, `${op.method} ${op.url} (${body ?? 'no'} body)`).toBe(403)
        expect(answer.json().error.code).toBe('read_only')
      }
    }
  })
})
