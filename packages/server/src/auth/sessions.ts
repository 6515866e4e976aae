import { createHash } from 'node:crypto'
import { and, eq, gt, inArray, isNull } from 'drizzle-orm'
import type { FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import type { Database } from '../db/client.ts'
import { sessions, users } from '../db/schema.ts'
import { createCoalescer } from '../db/coalesce.ts'
import { unauthorized } from '../errors.ts'

/** Name of the HttpOnly session cookie the browser carries on an http origin (development). */
export const SESSION_COOKIE = 'portico_session'
/**
 * Its name on an https origin: browsers accept a `__Host-` cookie only from the exact host, with
 * Secure, Path=/ and no Domain, so a sibling subdomain cannot plant one.
 */
export const SECURE_SESSION_COOKIE = `__Host-${SESSION_COOKIE}`

export const sessionCookieName = (secure: boolean) =>
  secure ? SECURE_SESSION_COOKIE : SESSION_COOKIE

/**
 * The session token from a Cookie header. The `__Host-` cookie comes first; the plain one counts
 * only where an http origin is configured. A name sent twice gives nothing: one of the two was
 * planted (e.g. with a narrower Path, which browsers send first) and neither can be trusted.
 */
export function sessionTokenOf(
  header: string | undefined,
  plainAllowed: boolean,
): string | undefined {
  if (!header) return undefined
  const values = new Map<string, string[]>()
  for (const part of header.split(';')) {
    const at = part.indexOf('=')
    if (at < 0) continue
    const name = part.slice(0, at).trim()
    if (name !== SESSION_COOKIE && name !== SECURE_SESSION_COOKIE) continue
    values.set(name, [...(values.get(name) ?? []), part.slice(at + 1).trim()])
  }
  const secure = values.get(SECURE_SESSION_COOKIE)
  if (secure) return secure.length === 1 ? secure[0] : undefined
  const plain = values.get(SESSION_COOKIE)
  return plainAllowed && plain?.length === 1 ? plain[0] : undefined
}

export type User = typeof users.$inferSelect
export type Session = typeof sessions.$inferSelect

export interface CurrentUser {
  user: User
  session: Session
  /** How the token arrived: browsers use the cookie, other clients a bearer token. */
  via: 'cookie' | 'bearer'
}

/** Tokens are stored only as their SHA-256: a leaked table does not leak sessions. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex')
}

type Found = { user: User; session: Session }

/** The live sessions among these token hashes, with their users, in one query. */
async function findSessions(db: Database, hashes: string[]): Promise<(Found | null)[]> {
  const rows = await db
    .select({ session: sessions, user: users })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(
      and(
        inArray(sessions.tokenHash, [...new Set(hashes)]),
        isNull(sessions.revokedAt),
        gt(sessions.expiresAt, new Date()),
      ),
    )
  const byHash = new Map(rows.map((row) => [row.session.tokenHash, row]))
  return hashes.map((hash) => byHash.get(hash) ?? null)
}

// Under load, the session lookups of concurrent requests share one query (measured with bench:server:
// object writes are dominated by per-request statements on the single-connection PGlite).
const lookups = new WeakMap<Database, (hash: string) => Promise<Found | null>>()

/** The live (unexpired, unrevoked) session of a token, with its user. */
export async function findSession(db: Database, token: string): Promise<Found | null> {
  let lookup = lookups.get(db)
  if (!lookup) {
    lookup = createCoalescer((hashes: string[]) => findSessions(db, hashes))
    lookups.set(db, lookup)
  }
  return lookup(hashToken(token))
}

/** Revokes one session of a user; false when it is not theirs or already gone. */
export async function revokeSession(
  db: Database,
  userId: string,
  sessionId: string,
): Promise<boolean> {
  const rows = await db
    .update(sessions)
    .set({ revokedAt: new Date() })
    .where(and(eq(sessions.id, sessionId), eq(sessions.userId, userId), isNull(sessions.revokedAt)))
    .returning({ id: sessions.id })
  return rows.length > 0
}

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * The signed-in user, from `Authorization: Bearer <token>` or the session cookie; null when
     * there is none or it is expired or revoked. Looked up at most once per request.
     */
    currentUser(): Promise<CurrentUser | null>
    /** Like `currentUser()`, but refuses with 401 when nobody is signed in. */
    requireUser(): Promise<CurrentUser>
  }
}

const resolved = new WeakMap<FastifyRequest, Promise<CurrentUser | null>>()

/** Gives every request `currentUser()` and `requireUser()`. */
export const currentUserPlugin = fp(
  async (app) => {
    app.decorateRequest('currentUser', function (this: FastifyRequest) {
      let pending = resolved.get(this)
      if (!pending) {
        pending = lookUp(this)
        resolved.set(this, pending)
      }
      return pending
    })
    app.decorateRequest('requireUser', async function (this: FastifyRequest) {
      const current = await this.currentUser()
      if (!current) throw unauthorized('Sign in with your wallet first.')
      return current
    })
  },
  { name: 'portico-current-user' },
)

async function lookUp(request: FastifyRequest): Promise<CurrentUser | null> {
  const header = request.headers.authorization
  const bearer = typeof header === 'string' && /^Bearer\s+(\S+)$/i.exec(header)?.[1]
  const plainAllowed = request.server.config.app.publicOrigins.some((o) => o.startsWith('http:'))
  const cookie = sessionTokenOf(request.headers.cookie, plainAllowed)
  const token = bearer || cookie
  if (!token || token.length > 200) return null
  const found = await findSession(request.server.db, token)
  return found ? { ...found, via: bearer ? 'bearer' : 'cookie' } : null
}
