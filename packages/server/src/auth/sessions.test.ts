import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import {
  databaseKinds,
  signedIn,
  startSession,
  testApp,
  testConfig,
  testDatabase,
} from '../../test/helpers.ts'
import { buildServer } from '../app.ts'
import { openDatabase } from '../db/client.ts'
import { sessions, users } from '../db/schema.ts'
import { hashToken, SESSION_MEMORY_MS } from './sessions.ts'

describe.each(databaseKinds())('session store on %s', (kind) => {
  it('stores only the hash of the token and finds the session by the token', async () => {
    const { app } = await testApp(kind)
    const { token, session } = await startSession(app.services.database.db, {
      address: '0x00000000000000000000000000000000000000A1',
      ttlMs: 60_000,
    })
    const rows = await app.services.database.db.select().from(sessions)
    expect(rows.map((r) => r.tokenHash)).toEqual([hashToken(token)])
    expect(JSON.stringify(rows)).not.toContain(token)
    expect((await app.services.sessions.find(token))?.session.id).toBe(session.id)
    expect(await app.services.sessions.find(`${token}x`)).toBeNull()
  })

  it('keeps one user per address and refreshes the last sign-in', async () => {
    const { app } = await testApp(kind)
    const address = '0x00000000000000000000000000000000000000B2'
    const first = await startSession(app.services.database.db, { address })
    const again = await startSession(app.services.database.db, { address })
    expect(again.user.id).toBe(first.user.id)
    const [row] = await app.services.database.db.select().from(users)
    expect(row!.lastSignInAt.getTime()).toBeGreaterThanOrEqual(row!.firstSignInAt.getTime())
  })

  it('refuses expired and revoked sessions, and only the owner can revoke', async () => {
    const { app } = await testApp(kind)
    const address = '0x00000000000000000000000000000000000000C3'
    const expired = await startSession(app.services.database.db, { address, ttlMs: -1 })
    expect(await app.services.sessions.find(expired.token)).toBeNull()
    const live = await startSession(app.services.database.db, { address, ttlMs: 60_000 })
    const { user } = live
    expect(await app.services.sessions.revoke('someone-else', live.session.id)).toBe(false)
    expect(await app.services.sessions.find(live.token)).not.toBeNull()
    expect(await app.services.sessions.revoke(user.id, live.session.id)).toBe(true)
    expect(await app.services.sessions.find(live.token)).toBeNull()
    expect(await app.services.sessions.revoke(user.id, live.session.id)).toBe(false)
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

  it('remembers a session for a moment, asks again when told to, and forgets a user on revocation', async () => {
    const { app } = await testApp(kind)
    const live = await startSession(app.services.database.db, {
      address: '0x00000000000000000000000000000000000000D4',
    })
    expect(await app.services.sessions.find(live.token)).not.toBeNull()
    // Revoked behind the process's back (no announcement): the remembered session still answers,
    // a fresh lookup does not, and forgetting the user's sessions ends it.
    await app.services.database.db
      .update(sessions)
      .set({ revokedAt: new Date() })
      .where(eq(sessions.id, live.session.id))
    expect((await app.services.sessions.find(live.token))?.session.id).toBe(live.session.id)
    expect(await app.services.sessions.find(live.token, { fresh: true })).toBeNull()
    await app.services.database.db
      .update(sessions)
      .set({ revokedAt: null })
      .where(eq(sessions.id, live.session.id))
    expect(await app.services.sessions.find(live.token)).not.toBeNull()
    await app.services.database.db
      .update(sessions)
      .set({ revokedAt: new Date() })
      .where(eq(sessions.id, live.session.id))
    await app.services.sessions.forget({ userId: live.user.id })
    expect(await app.services.sessions.find(live.token)).toBeNull()
  })
})

const postgres = process.env.PORTICO_TEST_DATABASE_URL ? describe : describe.skip

postgres('sessions across processes on PostgreSQL', () => {
  it('a session signed out on one process is refused by another that remembered it', async () => {
    const database = await testDatabase('postgres')
    // A second process: its own connections to the same database.
    const other = await openDatabase({ kind: 'postgres', url: database.url!, poolSize: 2 })
    const config = testConfig()
    const a = await buildServer({ config, database, logger: false })
    const b = await buildServer({ config, database: other, logger: false })
    try {
      await Promise.all([a.ready(), b.ready()])
      const { headers } = await signedIn(a)
      const whoAmI = () => b.inject({ url: '/api/auth/session', headers })
      expect((await whoAmI()).statusCode).toBe(200)
      const remembered = Date.now()
      expect(
        (await a.inject({ method: 'POST', url: '/api/auth/logout', headers })).statusCode,
      ).toBe(204)
      await expect.poll(async () => (await whoAmI()).statusCode, { timeout: 3_000 }).toBe(401)
      // Told by the other process, not merely forgotten with time.
      expect(Date.now() - remembered).toBeLessThan(SESSION_MEMORY_MS)
    } finally {
      await b.close()
      await a.close()
      await other.close()
      await database.close()
    }
  })
})
