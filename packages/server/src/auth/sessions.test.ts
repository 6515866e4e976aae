import { describe, expect, it } from 'vitest'
import { databaseKinds, signedIn, startSession, testApp } from '../../test/helpers.ts'
import { sessions, users } from '../db/schema.ts'
import { findSession, hashToken, revokeSession } from './sessions.ts'

describe.each(databaseKinds())('session store on %s', (kind) => {
  it('stores only the hash of the token and finds the session by the token', async () => {
    const { app } = await testApp(kind)
    const { token, session } = await startSession(app.db, {
      address: '0x00000000000000000000000000000000000000A1',
      ttlMs: 60_000,
    })
    const rows = await app.db.select().from(sessions)
    expect(rows.map((r) => r.tokenHash)).toEqual([hashToken(token)])
    expect(JSON.stringify(rows)).not.toContain(token)
    expect((await findSession(app.db, token))?.session.id).toBe(session.id)
    expect(await findSession(app.db, `${token}x`)).toBeNull()
  })

  it('keeps one user per address and refreshes the last sign-in', async () => {
    const { app } = await testApp(kind)
    const address = '0x00000000000000000000000000000000000000B2'
    const first = await startSession(app.db, { address })
    const again = await startSession(app.db, { address })
    expect(again.user.id).toBe(first.user.id)
    const [row] = await app.db.select().from(users)
    expect(row!.lastSignInAt.getTime()).toBeGreaterThanOrEqual(row!.firstSignInAt.getTime())
  })

  it('refuses expired and revoked sessions, and only the owner can revoke', async () => {
    const { app } = await testApp(kind)
    const address = '0x00000000000000000000000000000000000000C3'
    const expired = await startSession(app.db, { address, ttlMs: -1 })
    expect(await findSession(app.db, expired.token)).toBeNull()
    const live = await startSession(app.db, { address, ttlMs: 60_000 })
    const { user } = live
    expect(await revokeSession(app.db, 'someone-else', live.session.id)).toBe(false)
    expect(await findSession(app.db, live.token)).not.toBeNull()
    expect(await revokeSession(app.db, user.id, live.session.id)).toBe(true)
    expect(await findSession(app.db, live.token)).toBeNull()
    expect(await revokeSession(app.db, user.id, live.session.id)).toBe(false)
  })

  it('resolves the current user from a bearer token or the cookie', async () => {
    const { app } = await testApp(kind, {}, (app) =>
      app.get('/probe', async (request) => {
        const current = await request.currentUser()
        return { address: current?.user.address ?? null, via: current?.via ?? null }
      }),
    )
    const { user, token, headers } = await signedIn(app)
    const byBearer = await app.inject({ url: '/probe', headers })
    expect(byBearer.json()).toEqual({ address: user.address, via: 'bearer' })
    const byCookie = await app.inject({ url: '/probe', cookies: { portico_session: token } })
    expect(byCookie.json()).toEqual({ address: user.address, via: 'cookie' })
    const nobody = await app.inject({ url: '/probe', headers: { authorization: 'Bearer nope' } })
    expect(nobody.json()).toEqual({ address: null, via: null })
  })
})
