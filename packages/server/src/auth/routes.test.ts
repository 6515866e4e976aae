import { eq } from 'drizzle-orm'
import { SiweMessage } from 'siwe'
import { describe, expect, it } from 'vitest'
import { databaseKinds, testApp, testConfig } from '../../test/helpers.ts'
import { getNonce, messageFor, newAccount, signIn, verify } from '../../test/siwe.ts'
import type { AppConfig } from '../config/app.ts'
import { nonces, users } from '../db/schema.ts'

const appWith = (kind: Parameters<typeof testApp>[0], app: Partial<AppConfig> = {}) =>
  testApp(kind, { app: { ...testConfig().app, ...app } })

const minutes = (n: number) => new Date(Date.now() + n * 60_000)
/** Swaps upper and lower case of the letters: a checksum that no longer matches. */
const flipCase = (hex: string) =>
  [...hex].map((c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase())).join('')

describe.each(databaseKinds())('sign-in with a wallet on %s', (kind) => {
  // Tests that change no state another test reads (each signs in with its own account and
  // nonce) share one app: a fresh PGlite app takes a second or two.
  let shared: ReturnType<typeof appWith> | undefined
  const sharedApp = () => (shared ??= appWith(kind))

  it("answers the site team's console role with the user, and nothing for anyone else", async () => {
    const admin = newAccount()
    const viewer = newAccount()
    const { app } = await appWith(kind, {
      adminAddresses: [admin.address],
      viewerAddresses: [viewer.address],
    })
    for (const [account, role] of [
      [admin, 'admin'],
      [viewer, 'viewer'],
      [newAccount(), undefined],
    ] as const) {
      const { response } = await signIn(app, { account })
      expect(response.json().user.role).toBe(role)
      const cookie = String(response.headers['set-cookie']).split(';')[0]!
      const session = await app.inject({ url: '/api/auth/session', headers: { cookie } })
      expect(session.json().user.role).toBe(role)
    }
  })

  it('signs in with a local key, the cookie session works, logout ends it', async () => {
    const { app } = await appWith(kind)
    const account = newAccount()
    const { response } = await signIn(app, { account })
    expect(response.statusCode).toBe(200)
    const body = response.json()
    expect(body.user.address).toBe(account.address)
    expect(body.token).toBeUndefined()
    const setCookie = String(response.headers['set-cookie'])
    expect(setCookie).toMatch(/^portico_session=[^;]+;/)
    expect(setCookie).toMatch(/HttpOnly/)
    expect(setCookie).toMatch(/SameSite=Lax/)
    expect(setCookie).toMatch(/Path=\//)
    expect(setCookie).not.toMatch(/Secure/) // the default origin is http://127.0.0.1
    const cookie = setCookie.split(';')[0]!
    const session = await app.inject({ url: '/api/auth/session', headers: { cookie } })
    expect(session.statusCode).toBe(200)
    expect(session.json().user.address).toBe(account.address)
    expect(session.json().session.chainId).toBe(1)
    const [user] = await app.services.database.db
      .select()
      .from(users)
      .where(eq(users.address, account.address))
    expect(user?.firstSignInAt).toBeInstanceOf(Date)

    const logout = await app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: { cookie },
    })
    expect(logout.statusCode).toBe(204)
    expect(String(logout.headers['set-cookie'])).toMatch(/portico_session=;/)
    const after = await app.inject({ url: '/api/auth/session', headers: { cookie } })
    expect(after.statusCode).toBe(401)
  })

  it('signs in with a bearer token, lists sessions and refuses a revoked session at once', async () => {
    const { app } = await appWith(kind)
    const account = newAccount()
    const first = (await signIn(app, { account, mode: 'bearer' })).response
    expect(first.statusCode).toBe(200)
    expect(first.headers['set-cookie']).toBeUndefined()
    const a = { authorization: `Bearer ${first.json().token}` }
    const second = (await signIn(app, { account, mode: 'bearer' })).response.json()
    const b = { authorization: `Bearer ${second.token}` }
    expect(second.user.id).toBe(first.json().user.id)

    const list = (await app.inject({ url: '/api/auth/sessions', headers: a })).json().sessions
    expect(list).toHaveLength(2)
    expect(list.find((s: { current: boolean }) => s.current).id).toBe(first.json().session.id)

    const revoke = await app.inject({
      method: 'DELETE',
      url: `/api/auth/sessions/${second.session.id}`,
      headers: a,
    })
    expect(revoke.statusCode).toBe(204)
    expect((await app.inject({ url: '/api/auth/session', headers: b })).statusCode).toBe(401)
    expect((await app.inject({ url: '/api/auth/session', headers: a })).statusCode).toBe(200)
    const again = await app.inject({
      method: 'DELETE',
      url: `/api/auth/sessions/${second.session.id}`,
      headers: a,
    })
    expect(again.json().error.code).toBe('session_not_found')
    const someoneElse = (await signIn(app, { mode: 'bearer' })).response.json()
    const foreign = await app.inject({
      method: 'DELETE',
      url: `/api/auth/sessions/${someoneElse.session.id}`,
      headers: a,
    })
    expect(foreign.statusCode).toBe(404)
  })

  it('refuses a replay of an accepted message', async () => {
    const { app } = await sharedApp()
    const { response, message, signature } = await signIn(app)
    expect(response.statusCode).toBe(200)
    const replay = await verify(app, { message, signature })
    expect(replay.statusCode).toBe(401)
    expect(replay.json().error.code).toBe('nonce_used')
  })

  it('of two simultaneous sign-ins with one message, exactly one gets a session', async () => {
    const { app } = await sharedApp()
    const account = newAccount()
    const nonce = await getNonce(app)
    const message = messageFor(nonce, account.address)
    const signature = await account.signMessage({ message })
    const both = await Promise.all([1, 2].map(() => verify(app, { message, signature })))
    expect(both.map((r) => r.statusCode).sort()).toEqual([200, 401])
    expect(both.find((r) => r.statusCode === 401)?.json().error.code).toBe('nonce_used')
  })

  it('refuses a message written before its nonce was issued', async () => {
    const { app } = await sharedApp()
    const account = newAccount()
    const nonce = await getNonce(app)
    const message = messageFor(nonce, account.address, {
      issuedAt: new Date(Date.parse(nonce.serverTime) - 5 * 60_000),
    })
    const signature = await account.signMessage({ message })
    const response = await verify(app, { message, signature })
    expect(response.json().error.code).toBe('siwe_issued_at_not_fresh')
  })

  it('answers 401 without a session and ignores a made-up token', async () => {
    const { app } = await sharedApp()
    const none = await app.inject({ url: '/api/auth/session' })
    expect(none.statusCode).toBe(401)
    expect(none.json().error.code).toBe('unauthorized')
    const fake = await app.inject({
      url: '/api/auth/sessions',
      headers: { authorization: 'Bearer x' },
    })
    expect(fake.statusCode).toBe(401)
  })

  // One test per rejection reason of a sign-in. Each names the code the client branches on.
  const rejections: [string, string, number, Parameters<typeof signIn>[1]][] = [
    ['another domain', 'siwe_domain_mismatch', 401, { overrides: { domain: 'evil.example' } }],
    [
      'the right host with another scheme',
      'siwe_domain_mismatch',
      401,
      { overrides: { scheme: 'https' } },
    ],
    ['another URI', 'siwe_uri_mismatch', 401, { overrides: { uri: 'https://evil.example/' } }],
    ['a chain that is not allowed', 'siwe_chain_not_allowed', 401, { overrides: { chainId: 5 } }],
    [
      'a message for another app id',
      'siwe_app_mismatch',
      401,
      { overrides: { requestId: 'other-app' } },
    ],
    ['a message without app id', 'siwe_app_mismatch', 401, { overrides: { requestId: undefined } }],
    ['a nonce not issued here', 'nonce_unknown', 401, { overrides: { nonce: 'abcdefgh12345678' } }],
    [
      'an issuedAt far in the past',
      'siwe_issued_at_not_fresh',
      401,
      { overrides: { issuedAt: minutes(-120) } },
    ],
    [
      'an issuedAt in the future',
      'siwe_issued_at_not_fresh',
      401,
      { overrides: { issuedAt: minutes(10) } },
    ],
    [
      'no expiration time',
      'siwe_expiration_missing',
      401,
      { overrides: { expirationTime: undefined } },
    ],
    ['an expired message', 'siwe_expired', 401, { overrides: { expirationTime: minutes(-1) } }],
    [
      'an expiration too far ahead',
      'siwe_expiration_too_far',
      401,
      { overrides: { expirationTime: minutes(24 * 60) } },
    ],
    [
      'a notBefore in the future',
      'siwe_not_yet_valid',
      401,
      { overrides: { notBefore: minutes(5) } },
    ],
    [
      'an unreadable Issued At',
      'siwe_date_invalid',
      400,
      { edit: (m) => m.replace(/Issued At: .*/, 'Issued At: yesterday') },
    ],
    [
      'an unreadable Expiration Time',
      'siwe_date_invalid',
      400,
      { edit: (m) => m.replace(/Expiration Time: .*/, 'Expiration Time: 2026-13-45T99:00:00Z') },
    ],
    [
      'an unreadable Not Before',
      'siwe_date_invalid',
      400,
      {
        overrides: { notBefore: minutes(-1) },
        edit: (m) => m.replace(/Not Before: .*/, 'Not Before: 1700000000'),
      },
    ],
    ['a message that is not EIP-4361', 'siwe_malformed', 400, { edit: () => 'hello, sign me in' }],
    // Non-canonical messages a lenient parser accepts, and a wallet's strict parser would not
    // have recognised as a sign-in request.
    [
      'an address with a wrong EIP-55 checksum',
      'siwe_address_not_checksummed',
      400,
      {
        edit: (m) =>
          m.replace(/\n0x([0-9a-fA-F]{40})\n/, (_, hex: string) => `\n0x${flipCase(hex)}\n`),
      },
    ],
    [
      'an all-lowercase address',
      'siwe_address_not_checksummed',
      400,
      {
        edit: (m) =>
          m.replace(/\n(0x[0-9a-fA-F]{40})\n/, (_, a: string) => `\n${a.toLowerCase()}\n`),
      },
    ],
    [
      'a statement over two lines',
      'siwe_malformed',
      400,
      {
        overrides: { statement: 'Sign in' },
        edit: (m) => m.replace('\nSign in\n', '\nSign\nin\n'),
      },
    ],
    ['extra text after the last field', 'siwe_malformed', 400, { edit: (m) => `${m}\nP.S. hi` }],
    [
      'fields out of order',
      'siwe_malformed',
      400,
      { edit: (m) => m.replace(/(Version: 1)\n(Chain ID: \d+)/, '$2\n$1') },
    ],
    [
      'Resources that are not URIs',
      'siwe_resource_invalid',
      400,
      {
        overrides: { resources: ['https://portico.example/terms'] },
        edit: (m) => m.replace('- https://portico.example/terms', '- not a uri'),
      },
    ],
    [
      'a missing statement with one blank line',
      'siwe_malformed',
      400,
      { overrides: { statement: undefined }, edit: (m) => m.replace('\n\n\nURI:', '\n\nURI:') },
    ],
    [
      'a decoy URI line before the real one',
      'siwe_malformed',
      400,
      { edit: (m) => m.replace('\nURI: ', '\nURI: https://evil.example/\nURI: ') },
    ],
    [
      'no Expiration Time, with one in the statement',
      'siwe_expiration_missing',
      401,
      {
        overrides: {
          expirationTime: undefined,
          statement: `Expiration Time: ${minutes(5).toISOString()}`,
        },
      },
    ],
  ]
  it.each(rejections)('refuses %s (%s)', async (_name, code, status, options) => {
    const { app } = await sharedApp()
    const { response } = await signIn(app, options)
    expect(response.json().error.code).toBe(code)
    expect(response.statusCode).toBe(status)
    expect(response.json().error.message.length).toBeGreaterThan(10)
    expect(response.headers['set-cookie']).toBeUndefined()
  })

  it('refuses an expired nonce', async () => {
    const { app } = await sharedApp()
    const account = newAccount()
    const nonce = await getNonce(app)
    await app.services.database.db
      .update(nonces)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(nonces.nonce, nonce.nonce))
    const message = messageFor(nonce, account.address)
    const signature = await account.signMessage({ message })
    const response = await verify(app, { message, signature })
    expect(response.statusCode).toBe(401)
    expect(response.json().error.code).toBe('nonce_expired')
  })

  it('refuses a signature by another address', async () => {
    const { app } = await sharedApp()
    const claimed = newAccount()
    const nonce = await getNonce(app)
    const message = messageFor(nonce, claimed.address)
    const signature = await newAccount().signMessage({ message })
    const response = await verify(app, { message, signature })
    expect(response.statusCode).toBe(401)
    expect(response.json().error.code).toBe('signature_invalid')
  })

  it.each([
    ['too short', '0x1234'],
    ['65 zero bytes', `0x${'00'.repeat(65)}`],
    ['garbage v', `0x${'11'.repeat(64)}ff`],
  ])('refuses a malformed signature (%s)', async (_name, signature) => {
    const { app } = await sharedApp()
    const nonce = await getNonce(app)
    const message = messageFor(nonce, newAccount().address)
    const response = await verify(app, { message, signature })
    expect(response.statusCode).toBe(401)
    expect(response.json().error.code).toBe('signature_invalid')
  })

  it('refuses a signature that is not hex with a 400', async () => {
    const { app } = await sharedApp()
    const nonce = await getNonce(app)
    const message = messageFor(nonce, newAccount().address)
    const response = await verify(app, { message, signature: 'not a signature' })
    expect(response.statusCode).toBe(400)
    expect(response.json().error.code).toBe('invalid_request')
  })

  it('checks the configured origin, never the Host header', async () => {
    const { app } = await appWith(kind, { publicOrigins: ['https://app.example.org'] })
    const nonce = await getNonce(app)
    expect(nonce.domain).toBe('app.example.org')
    expect(nonce.uri).toBe('https://app.example.org')
    const { response } = await signIn(app, {
      overrides: { domain: 'evil.example', uri: 'https://evil.example' },
      headers: { host: 'evil.example' },
    })
    expect(response.json().error.code).toBe('siwe_domain_mismatch')
    const ok = await signIn(app, { headers: { host: 'evil.example' } })
    expect(ok.response.statusCode).toBe(200)
    expect(String(ok.response.headers['set-cookie'])).toMatch(/Secure/)
  })

  it('over https the cookie is __Host- prefixed, and planted or duplicate cookies are not used', async () => {
    const { app } = await appWith(kind, { publicOrigins: ['https://app.example.org'] })
    const { response } = await signIn(app)
    const setCookie = String(response.headers['set-cookie'])
    expect(setCookie).toMatch(/^__Host-portico_session=[^;]+;/)
    expect(setCookie).toMatch(/; Path=\/(;|$)/)
    expect(setCookie).toMatch(/; Secure/)
    expect(setCookie).not.toMatch(/Domain=/i)
    const mine = setCookie.split(';')[0]!.split('=')[1]!
    const theirs = (await signIn(app, { mode: 'bearer' })).response.json().token as string
    const session = (cookie: string) =>
      app.inject({ url: '/api/auth/session', headers: { cookie } })

    expect((await session(`__Host-portico_session=${mine}`)).statusCode).toBe(200)
    // A sibling subdomain can plant a plain cookie, or a second one with a narrower Path.
    expect((await session(`portico_session=${theirs}`)).statusCode).toBe(401)
    for (const cookie of [
      `__Host-portico_session=${theirs}; __Host-portico_session=${mine}`,
      `__Host-portico_session=${mine}; __Host-portico_session=${theirs}`,
    ]) {
      expect((await session(cookie)).statusCode).toBe(401)
    }
    expect(
      (await session(`portico_session=${theirs}; __Host-portico_session=${mine}`)).json().user
        .address,
    ).toBe(response.json().user.address)
  })

  it('over http (development) two session cookies of one name are not used either', async () => {
    const { app } = await appWith(kind)
    const { response } = await signIn(app)
    const mine = String(response.headers['set-cookie']).split(';')[0]!
    const theirs = (await signIn(app, { mode: 'bearer' })).response.json().token as string
    const session = (cookie: string) =>
      app.inject({ url: '/api/auth/session', headers: { cookie } })
    expect((await session(mine)).statusCode).toBe(200)
    expect((await session(`portico_session=${theirs}; ${mine}`)).statusCode).toBe(401)
  })

  it('refuses cookie requests that change state from another origin', async () => {
    const { app } = await appWith(kind)
    const { response } = await signIn(app)
    const cookie = String(response.headers['set-cookie']).split(';')[0]!
    for (const headers of [
      { cookie, origin: 'https://evil.example' },
      { cookie, 'sec-fetch-site': 'cross-site' },
      { cookie, origin: 'null' },
    ]) {
      const refused = await app.inject({ method: 'POST', url: '/api/auth/logout', headers })
      expect(refused.statusCode).toBe(403)
      expect(refused.json().error.code).toBe('cross_origin_refused')
    }
    // Also for routes that do not exist yet, and a cross-site sign-in (login CSRF).
    const unknown = await app.inject({
      method: 'PUT',
      url: '/api/classes/Thing/1',
      headers: { cookie, origin: 'https://evil.example' },
    })
    expect(unknown.statusCode).toBe(403)
    const crossSignIn = await signIn(app, { headers: { origin: 'https://evil.example' } })
    expect(crossSignIn.response.statusCode).toBe(403)
    expect((await app.inject({ url: '/api/auth/session', headers: { cookie } })).statusCode).toBe(
      200,
    )
    const sameOrigin = await app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: { cookie, origin: 'http://127.0.0.1:3000', 'sec-fetch-site': 'same-origin' },
    })
    expect(sameOrigin.statusCode).toBe(204)
  })

  it('rate-limits the sign-in endpoints per client', async () => {
    const { app } = await appWith(kind, { authRateLimit: 3 })
    const codes = []
    for (let i = 0; i < 4; i++) {
      codes.push(
        (await app.inject({ method: 'POST', url: '/api/auth/nonce', payload: {} })).statusCode,
      )
    }
    expect(codes).toEqual([200, 200, 200, 429])
    const limited = await app.inject({ method: 'POST', url: '/api/auth/nonce', payload: {} })
    expect(limited.json().error.code).toBe('rate_limited')
  })
})

describe.each(databaseKinds())('sign-in messages written by real libraries on %s', (kind) => {
  // Each signs in a new account with its own nonce: one app serves them all.
  let shared: ReturnType<typeof appWith> | undefined
  const sharedApp = () => (shared ??= appWith(kind))
  type Variant = { statement?: string; resources?: string[] }
  const variants: [string, Variant][] = [
    ['with a statement', { statement: 'Sign in to Portico.' }],
    ['without a statement', {}],
    [
      'with resources',
      { statement: 'Sign in.', resources: ['https://a.example/terms', 'ipfs://bafy'] },
    ],
  ]

  it.each(variants)('the siwe package, %s, is accepted', async (_name, variant) => {
    const { app } = await sharedApp()
    const account = newAccount()
    const nonce = await getNonce(app)
    const message = new SiweMessage({
      domain: nonce.domain,
      address: account.address,
      uri: nonce.uri,
      version: '1',
      chainId: nonce.chainIds[0]!,
      nonce: nonce.nonce,
      issuedAt: new Date(nonce.serverTime).toISOString(),
      expirationTime: new Date(nonce.expiresAt).toISOString(),
      requestId: nonce.appId,
      ...variant,
    }).prepareMessage()
    const signature = await account.signMessage({ message })
    const response = await verify(app, { message, signature })
    expect(response.json()).toMatchObject({ user: { address: account.address } })
    expect(response.statusCode).toBe(200)
  })

  it.each(variants)("viem's createSiweMessage, %s, is accepted", async (_name, variant) => {
    const { app } = await sharedApp()
    const account = newAccount()
    const nonce = await getNonce(app)
    const message = messageFor(nonce, account.address, {
      statement: undefined,
      ...variant,
    })
    const signature = await account.signMessage({ message })
    const response = await verify(app, { message, signature })
    expect(response.statusCode).toBe(200)
  })
})
