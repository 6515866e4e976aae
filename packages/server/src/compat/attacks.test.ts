import { describe, expect, it } from 'vitest'
import type { FastifyInstance } from 'fastify'
import WebSocket from 'ws'
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts'
import { databaseKinds, testApp } from '../../test/helpers.ts'
import { listeningApp } from '../../test/compat.ts'

// What a hostile caller tries against the mount, on each database.

function client(app: FastifyInstance) {
  return async (path: string, body: Record<string, unknown> = {}, token?: string) => {
    const answer = await app.inject({
      method: 'POST',
      url: `/server/${path}`,
      headers: { 'content-type': 'text/plain' },
      payload: JSON.stringify({
        _ApplicationId: 'portico',
        ...body,
        ...(token ? { _SessionToken: token } : {}),
      }),
    })
    return { status: answer.statusCode, body: answer.json(), headers: answer.headers }
  }
}

async function serverTime(call: ReturnType<typeof client>): Promise<string> {
  return ((await call('functions/getServerTime')).body as { result: { dateTime: string } }).result
    .dateTime
}

async function legacyAuthData(
  call: ReturnType<typeof client>,
  signer: PrivateKeyAccount,
  appId = 'portico',
) {
  const data = `Welcome!\n\nId: ${appId}:${await serverTime(call)}`
  return {
    id: signer.address.toLowerCase(),
    signature: await signer.signMessage({ message: data }),
    data,
  }
}

async function logIn(
  call: ReturnType<typeof client>,
  account: PrivateKeyAccount,
): Promise<{ token: string; id: string }> {
  const answer = await call('users', {
    authData: { moralisEth: await legacyAuthData(call, account) },
  })
  expect(answer.status).toBeLessThan(300)
  const body = answer.body as { sessionToken: string; objectId: string }
  return { token: body.sessionToken, id: body.objectId }
}

const alice = privateKeyToAccount(generatePrivateKey())
const bob = privateKeyToAccount(generatePrivateKey())

describe.each(databaseKinds())('attacks on the mount on %s', (kind) => {
  it('refuses a signature by another wallet, a replayed sign-in and another app id, with 101', async () => {
    const { app } = await testApp(kind)
    const call = client(app)
    // Bob signs, but claims to be Alice.
    const forged = await legacyAuthData(call, bob)
    const asAlice = await call('users', {
      authData: { moralisEth: { ...forged, id: alice.address.toLowerCase() } },
    })
    expect(asAlice).toMatchObject({ status: 404, body: { code: 101 } })
    // The forged attempt did not use up the server time: Bob's own sign-in with it works.
    const honest = await call('users', { authData: { moralisEth: forged } })
    expect(honest.status).toBe(201)
    // The same signed message again: refused.
    const replay = await call('users', { authData: { moralisEth: forged } })
    expect(replay).toMatchObject({ status: 404, body: { code: 101 } })
    // A message for another app, and a server time this server never issued.
    const otherApp = await legacyAuthData(call, alice, 'another-app')
    expect((await call('users', { authData: { moralisEth: otherApp } })).body).toMatchObject({
      code: 101,
    })
    const made = 'Welcome!\n\nId: portico:1795384395644'
    const madeUp = {
      id: alice.address.toLowerCase(),
      signature: await alice.signMessage({ message: made }),
      data: made,
    }
    expect((await call('users', { authData: { moralisEth: madeUp } })).body).toMatchObject({
      code: 101,
    })
    // An envelope for another application id is refused before anything runs.
    const wrongApp = await app.inject({
      method: 'POST',
      url: '/server/functions/getServerTime',
      headers: { 'content-type': 'text/plain' },
      payload: JSON.stringify({ _ApplicationId: 'someone-else' }),
    })
    expect(wrongApp.json()).toMatchObject({ code: 119 })
    // Other providers are not a way in.
    expect(
      (await call('users', { authData: { facebook: { id: '1', access_token: 'x' } } })).body,
    ).toMatchObject({ code: 252 })
  })

  it("keeps another user's objects unreachable by id, query, count, batch, include and live query", async () => {
    const server = await listeningApp(kind)
    const call = client(server.app)
    const a = await logIn(call, alice)
    const b = await logIn(call, bob)
    const secret = await call(
      'classes/Diary',
      { text: 'private', ACL: { [b.id]: { read: true, write: true } } },
      b.token,
    )
    expect(secret.status).toBe(201)
    const secretId = (secret.body as { objectId: string }).objectId
    const pointer = { __type: 'Pointer', className: 'Diary', objectId: secretId }
    await call('classes/Link', { to: pointer }, a.token)

    expect(
      (await call(`classes/Diary/${secretId}`, { _method: 'GET' }, a.token)).body,
    ).toMatchObject({ code: 101 })
    const query = await call(
      'classes/Diary',
      { _method: 'GET', where: { objectId: secretId }, count: 1 },
      a.token,
    )
    expect(query.body).toEqual({ results: [], count: 0 })
    const batch = await call(
      'batch',
      {
        requests: [
          { method: 'GET', path: `/server/classes/Diary/${secretId}`, body: {} },
          { method: 'PUT', path: `/server/classes/Diary/${secretId}`, body: { text: 'mine now' } },
          { method: 'DELETE', path: `/server/classes/Diary/${secretId}`, body: {} },
        ],
      },
      a.token,
    )
    expect(batch.body).toEqual([
      { error: { code: 101, error: expect.any(String) } },
      { error: { code: 101, error: expect.any(String) } },
      { error: { code: 101, error: expect.any(String) } },
    ])
    const included = await call('classes/Link', { _method: 'GET', include: 'to' }, a.token)
    expect((included.body as { results: { to: unknown }[] }).results[0]!.to).toEqual(pointer)
    // Bob, the owner, gets it resolved.
    const own = await call(
      'classes/Diary',
      { _method: 'GET', where: { objectId: secretId } },
      b.token,
    )
    expect((own.body as { results: { text: string }[] }).results[0]!.text).toBe('private')

    // Live: Alice subscribes to the class; Bob's private change never reaches her.
    const socket = new WebSocket(server.serverUrl.replace('http', 'ws'))
    const messages: { op: string; object?: { text?: string } }[] = []
    socket.on('message', (data) => messages.push(JSON.parse(String(data)) as never))
    await new Promise((resolve) => socket.once('open', resolve))
    socket.send(JSON.stringify({ op: 'connect', applicationId: 'portico', sessionToken: a.token }))
    socket.send(
      JSON.stringify({ op: 'subscribe', requestId: 1, query: { className: 'Diary', where: {} } }),
    )
    await expect.poll(() => messages.map((m) => m.op)).toEqual(['connected', 'subscribed'])
    await call(`classes/Diary/${secretId}`, { _method: 'PUT', text: 'still private' }, b.token)
    await call('classes/Diary', { text: 'public page' }, b.token)
    await expect
      .poll(() => messages.map((m) => m.op))
      .toEqual(['connected', 'subscribed', 'create'])
    expect(messages[2]!.object!.text).toBe('public page')
    socket.close()
  })

  it('applies a write re-sent with the same X-Parse-Request-Id once, answering 159', async () => {
    const { app } = await testApp(kind)
    const call = client(app)
    const { token } = await logIn(call, alice)
    const send = (payload: object) =>
      app.inject({
        method: 'POST',
        url: '/server/classes/Counter',
        headers: { 'content-type': 'text/plain', 'x-parse-request-id': 'req-1' },
        payload: JSON.stringify({ _ApplicationId: 'portico', _SessionToken: token, ...payload }),
      })
    const first = await send({ n: 1 })
    expect(first.statusCode).toBe(201)
    expect((await send({ n: 1 })).json()).toEqual({ code: 159, error: 'Duplicate request' })
    const counted = await call('classes/Counter', { _method: 'GET', count: 1, limit: 0 }, token)
    expect(counted.body).toEqual({ results: [], count: 1 })
  })

  it('bounds $regex: nested quantifiers run by PostgreSQL, long patterns refused', async () => {
    const { app } = await testApp(kind)
    const call = client(app)
    const { token } = await logIn(call, alice)
    await call('classes/Word', { text: `${'a'.repeat(40)}b` }, token)
    await call('classes/Word', { text: 'aaaa' }, token)
    // Catastrophic for a backtracking engine (JavaScript's takes hours on 40 a's and a b).
    const found = await call(
      'classes/Word',
      { _method: 'GET', where: { text: { $regex: '^(a+)+$' } } },
      token,
    )
    expect((found.body as { results: { text: string }[] }).results.map((r) => r.text)).toEqual([
      'aaaa',
    ])
    const long = await call(
      'classes/Word',
      { _method: 'GET', where: { text: { $regex: 'a'.repeat(501) } } },
      token,
    )
    expect(long).toMatchObject({ status: 400, body: { code: 102 } })
    const broken = await call(
      'classes/Word',
      { _method: 'GET', where: { text: { $regex: '(' } } },
      token,
    )
    expect(broken.status).toBe(400)
    expect(typeof (broken.body as { code: number }).code).toBe('number')
  })

  it('answers the preflight on every path, errors included, Parse-shaped and never 5xx', async () => {
    // Strict defaults: a signed-out create is then refused too (Parse's would store the body).
    const { app } = await testApp(kind, {
      compat: {
        mount: '/server',
        legacySignIn: true,
        masterKey: undefined,
        masterKeyIps: [],
        strictDefaults: true,
      },
    })
    const preflight = await app.inject({
      method: 'OPTIONS',
      url: '/server/classes/Anything',
      headers: {
        origin: 'https://dapp.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type',
      },
    })
    expect(preflight.statusCode).toBe(204)
    expect(preflight.headers['access-control-allow-origin']).toBe('*')
    const bodies = [
      '',
      'not json',
      '[]',
      '{"_ApplicationId":"portico","_method":"PATCH"}',
      '{"_ApplicationId":"portico","where":"{"}',
      '{"_ApplicationId":"portico","_method":"GET","limit":-1}',
    ]
    for (const payload of bodies) {
      const answer = await app.inject({
        method: 'POST',
        url: '/server/classes/Item',
        headers: { 'content-type': 'text/plain' },
        payload,
      })
      expect(answer.statusCode, payload).toBeLessThan(500)
      expect(answer.headers['access-control-allow-origin']).toBe('*')
      expect(typeof answer.json<{ code: unknown }>().code, payload).toBe('number')
    }
    const unknown = await client(app)('nowhere/at/all')
    expect(unknown.status).toBeLessThan(500)
    expect(unknown.body).toMatchObject({ code: expect.any(Number), error: expect.any(String) })
  })

  it('with legacy sign-in off, accepts only a Sign-In with Ethereum message, with all its checks', async () => {
    const { app } = await testApp(kind, {
      compat: {
        mount: '/server',
        legacySignIn: false,
        masterKey: undefined,
        masterKeyIps: [],
      },
    })
    const call = client(app)
    expect((await call('functions/getServerTime')).body).toEqual({ result: null })
    const legacy = 'Welcome!\n\nId: portico:whatever'
    const refused = await call('users', {
      authData: {
        moralisEth: {
          id: alice.address,
          signature: await alice.signMessage({ message: legacy }),
          data: legacy,
        },
      },
    })
    expect(refused.body).toMatchObject({ code: 101 })
    const { result } = (
      await call('functions/requestMessage', { address: alice.address, chain: '31337' })
    ).body as {
      result: { message: string }
    }
    expect(result.message).toContain('wants you to sign in with your Ethereum account')
    const signIn = async (message: string, id: string) =>
      call('users', {
        authData: {
          moralisEth: { id, signature: await alice.signMessage({ message }), data: message },
        },
      })
    const ok = await signIn(result.message, alice.address.toLowerCase())
    expect(ok.status).toBe(201)
    expect((await signIn(result.message, alice.address)).body).toMatchObject({ code: 101 })
  })
})
