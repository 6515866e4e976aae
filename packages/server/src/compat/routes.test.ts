import { describe, expect, it } from 'vitest'
import { databaseKinds, testApp } from '../../test/helpers.ts'
import { createChainClients } from '../auth/signature.ts'
import { compatRoutes } from './routes.ts'

// The mount's route table: what each path below the mount reaches, for single calls and batch
// sub-requests alike.

const routes = compatRoutes({
  mount: '/server',
  clientFor: createChainClients(new Map()),
  functions: new Map(),
})

describe('the route table', () => {
  it('finds each route by the verb and the decoded segments', () => {
    expect(routes.find('GET', 'classes/Item')?.params).toEqual({ className: 'Item' })
    expect(routes.find('PUT', 'classes/Item/abc')?.params).toEqual({
      className: 'Item',
      objectId: 'abc',
    })
    expect(routes.find('GET', 'users/me')?.params).toEqual({})
    // `me` is a user id for any other verb.
    expect(routes.find('PUT', 'users/me')?.params).toEqual({ objectId: 'me' })
    expect(routes.find('POST', 'functions/add')?.params).toEqual({ name: 'add' })
    for (const [method, path] of [
      ['POST', 'users'],
      ['POST', 'logout'],
      ['POST', 'batch'],
      ['POST', 'classes/Item'],
      ['DELETE', 'classes/Item/abc'],
      ['POST', 'files/a.png'],
      ['GET', 'files/portico/a.png'],
      ['GET', 'health'],
      ['GET', 'config'],
      ['PUT', 'config'],
    ] as const)
      expect(routes.find(method, path), `${method} ${path}`).toBeDefined()
  })

  it('finds nothing for another verb, a missing or an extra segment', () => {
    for (const [method, path] of [
      ['DELETE', 'classes/Item'],
      ['GET', 'functions/add'],
      ['GET', 'users'],
      ['POST', 'users/abc'],
      ['GET', 'users/me/more'],
      ['GET', 'classes/Item/abc/more'],
      ['GET', ''],
      ['GET', '/classes/Item'],
      ['GET', 'Classes/Item'],
      ['POST', 'health'],
    ] as const)
      expect(routes.find(method, path), `${method} ${path}`).toBeUndefined()
  })

  it('hands back each segment exactly as decodeURIComponent reads it, whatever it holds', () => {
    const segments = ['a/b', 'a?b', 'a#b', 'a;b', '100%', '%2F', 'é ü', '💡', 'x'.repeat(300), '']
    for (const segment of segments) {
      const path = `classes/${encodeURIComponent(segment)}/${encodeURIComponent(`${segment}!`)}`
      expect(routes.find('GET', path)?.params, path).toEqual({
        className: segment,
        objectId: `${segment}!`,
      })
    }
    expect(routes.find('GET', 'classes/%E0')).toBeUndefined()
  })

  it("reads a file's URL only when both of its segments are there", () => {
    expect(routes.fileName('files/portico/a%20b.png')).toBe('a b.png')
    expect(routes.fileName('files//a.png')).toBeUndefined()
    expect(routes.fileName('files/portico/')).toBeUndefined()
    expect(routes.fileName('files/portico/a/b')).toBeUndefined()
    expect(routes.fileName('classes/Item/abc')).toBeUndefined()
    expect(routes.fileName('files/portico/%E0')).toBeUndefined()
  })
})

describe.each(databaseKinds())('dispatch through the table on %s', (kind) => {
  it('answers a batch sub-request as the same call on its own', async () => {
    const { app } = await testApp(kind)
    const call = async (path: string, body: object) =>
      (
        await app.inject({
          method: 'POST',
          url: `/server/${path}`,
          headers: { 'content-type': 'text/plain' },
          payload: JSON.stringify({ _ApplicationId: 'portico', ...body }),
        })
      ).json()
    const paths = ['classes/Item', 'classes/_Secret', 'classes/Item/missing', 'classes/It%65m']
    const alone = await Promise.all(paths.map((path) => call(path, { _method: 'GET' })))
    const batched = (await call('batch', {
      requests: paths.map((path) => ({ method: 'GET', path: `/server/${path}` })),
    })) as { success?: unknown; error?: unknown }[]
    expect(batched).toEqual(
      alone.map((answer: { code?: number; error?: string }) =>
        answer.code === undefined ? { success: answer } : { error: answer },
      ),
    )
    expect(alone.map((answer: { code?: number }) => answer.code)).toEqual([
      undefined,
      119,
      101,
      undefined,
    ])
    // A file's URL is a plain GET: sent in an envelope it is no call of the mount.
    expect(await call('files/portico/a.png', { _method: 'GET' })).toEqual({
      code: 119,
      error: "GET files/portico/a.png is not available on Portico's Parse-compatible API.",
    })
  })

  it('refuses a path encoded twice with a client error, never a 500', async () => {
    const { app } = await testApp(kind)
    const sent = [
      { method: 'GET' as const, url: '/server/files/%25E0/x' },
      { method: 'GET' as const, url: '/server/fil%2565s/portico/x' },
      { method: 'POST' as const, url: '/server/files/%25E0' },
      { method: 'POST' as const, url: '/server/classes/%25E0' },
    ]
    for (const request of sent) {
      const answer = await app.inject({
        ...request,
        headers: { 'content-type': 'text/plain' },
        payload: JSON.stringify({ _ApplicationId: 'portico', _method: request.method }),
      })
      expect(answer.statusCode, request.url).toBeGreaterThanOrEqual(400)
      expect(answer.statusCode, request.url).toBeLessThan(500)
      expect(answer.json<{ code: number }>().code, request.url).toBeTypeOf('number')
    }
  })
})
