import { beforeAll, describe, expect, it } from 'vitest'
import type { FastifyInstance } from 'fastify'
import { databaseKinds, signedIn, testApp } from '../../test/helpers.ts'
import { SESSION_COOKIE } from '../auth/sessions.ts'

// The cross-site guard: a cookie-authenticated write from another site is refused, whatever
// else the request carries.

describe.each(databaseKinds())('cross-site guard on %s', (kind) => {
  let app: FastifyInstance
  let token: string
  beforeAll(async () => {
    ;({ app } = await testApp(kind))
    ;({ token } = await signedIn(app))
  })

  const create = (headers: Record<string, string>) =>
    app.inject({
      method: 'POST',
      url: '/api/classes/Note',
      cookies: { [SESSION_COOKIE]: token },
      headers: { 'content-type': 'application/json', ...headers },
      payload: { data: { n: 1 } },
    })
  const foreign = { origin: 'https://evil.example' }

  it('is not skipped by an Authorization header that is not a valid bearer token', async () => {
    for (const authorization of ['Basic dXNlcjpwYXNz', 'Negotiate abc', 'Bearer', 'Bearer nope']) {
      const answer = await create({ ...foreign, authorization })
      expect(answer.statusCode, authorization).toBe(403)
      expect(answer.json().error.code).toBe('cross_origin_refused')
    }
  })

  it('lets a valid bearer token through (no browser sends one on its own)', async () => {
    const answer = await create({ ...foreign, authorization: `Bearer ${token}` })
    expect(answer.statusCode).toBe(201)
  })

  it('refuses a cookie request with no Origin but a foreign Referer', async () => {
    const answer = await create({ referer: 'https://evil.example/page' })
    expect(answer.statusCode).toBe(403)
    const garbage = await create({ referer: 'not a url' })
    expect(garbage.statusCode).toBe(403)
  })

  it('accepts a Referer from the app itself, and requests with no browser headers', async () => {
    const origin = app.services.config.app.publicOrigins[0]!
    expect((await create({ referer: `${origin}/account` })).statusCode).toBe(201)
    expect((await create({})).statusCode).toBe(201)
  })
})
