import { createHash } from 'node:crypto'
import { and, desc, eq, gt, inArray, isNull, lt } from 'drizzle-orm'
import type { FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import type { Database } from '../db/client.ts'
import type { Broadcast, Cluster, Codec } from '../db/cluster/cluster.ts'
import { sessions, users } from '../db/schema.ts'
import { createCoalescer } from '../db/coalesce.ts'
import { unauthorized } from '../errors.ts'

// The cookie's names and reading belong to HTTP (the origin guard reads them too).
export {
  SECURE_SESSION_COOKIE,
  SESSION_COOKIE,
  sessionCookieName,
  sessionTokenOf,
} from '../http/session-cookie.ts'
import { sessionTokenOf } from '../http/session-cookie.ts'

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

/**
 * How long a looked-up session is remembered by the process that looked it up. Every signed-in
 * request needs its session, and on the embedded database that lookup cost as much as the
 * request's own query (bench:server). A revocation made here is forgotten here at once and, on
 * PostgreSQL, told to every other process (a NOTIFY), so this bound only matters while that
 * news is lost (a dropped LISTEN connection, after which each process forgets everything).
 * Parse Server remembers sessions for the same 5 s by default.
 */
export const SESSION_MEMORY_MS = 5_000
const MAX_REMEMBERED = 10_000
const REVOKED_CHANNEL = 'portico_sessions_revoked'

/** Which remembered sessions to forget: some sessions, or all of a user's. */
export type Forget = { sessionIds: string[] } | { userId: string }

/** Revocations as news between processes; one that cannot be read forgets everything. */
const revocationCodec: Codec<Forget | 'all'> = {
  encode: (revocations) => revocations.map((which) => JSON.stringify(which)),
  decode(payload) {
    try {
      const which = JSON.parse(payload) as Forget
      return [which && typeof which === 'object' ? which : 'all']
    } catch {
      return ['all']
    }
  },
}

/**
 * The sessions of one database, as one server process sees them: lookups coalesced under load
 * and remembered for a moment, revocations forgotten here at once and announced to the other
 * processes through the cluster.
 */
export class Sessions {
  readonly #db: Database
  readonly #remembered = new Map<string, { found: Found; until: number }>()
  /** Moves on every forget: a lookup that started before one must not be remembered after it. */
  #generation = 0
  readonly #coalesced: (hash: string) => Promise<Found | null>
  readonly #revocations: Broadcast<Forget | 'all'>
  /** Resolves once this process hears the revocations of the others. */
  readonly ready: Promise<void>

  constructor(db: Database, cluster: Pick<Cluster, 'broadcast'>) {
    this.#db = db
    this.#coalesced = createCoalescer((hashes: string[]) => findSessions(db, hashes))
    // News missed while the cluster's LISTEN connection was down: forget everything.
    this.#revocations = cluster.broadcast(REVOKED_CHANNEL, revocationCodec, () => this.hear('all'))
    this.#revocations.listen((which) => this.hear(which))
    this.ready = this.#revocations.ready
  }

  /**
   * The live (unexpired, unrevoked) session of a token, with its user. `fresh` asks the
   * database even when the session is remembered (for checks that exist to notice revocations).
   */
  async find(token: string, { fresh = false }: { fresh?: boolean } = {}): Promise<Found | null> {
    const hash = hashToken(token)
    const now = Date.now()
    const hit = fresh ? undefined : this.#remembered.get(hash)
    if (hit && hit.until > now && hit.found.session.expiresAt.getTime() > now) return hit.found
    const generation = this.#generation
    const found = await this.#coalesced(hash)
    if (!found) this.#remembered.delete(hash)
    else if (generation === this.#generation) {
      if (this.#remembered.size >= MAX_REMEMBERED) this.#remembered.clear()
      this.#remembered.set(hash, { found, until: now + SESSION_MEMORY_MS })
    }
    return found
  }

  /**
   * Forgets remembered sessions after their revocation has committed: here at once, and on
   * every other process too. Never throws (the revocation itself is stored).
   */
  async forget(which: Forget): Promise<void> {
    this.hear(which)
    // A lost announcement only lets another process trust the session for SESSION_MEMORY_MS.
    await this.#revocations.publish([which]).catch(() => {})
  }

  /** Forgets what another process revoked (everything, after news may have been lost). */
  hear(which: Forget | 'all'): void {
    this.#generation++
    if (which === 'all') return this.#remembered.clear()
    const gone =
      'sessionIds' in which
        ? (found: Found) => which.sessionIds.includes(found.session.id)
        : (found: Found) => found.user.id === which.userId
    for (const [hash, { found }] of this.#remembered) if (gone(found)) this.#remembered.delete(hash)
  }

  /** Revokes one session of a user; false when it is not theirs or already gone. */
  async revoke(userId: string, sessionId: string): Promise<boolean> {
    const rows = await this.#db
      .update(sessions)
      .set({ revokedAt: new Date() })
      .where(
        and(eq(sessions.id, sessionId), eq(sessions.userId, userId), isNull(sessions.revokedAt)),
      )
      .returning({ id: sessions.id })
    if (rows.length) await this.forget({ sessionIds: [sessionId] })
    return rows.length > 0
  }

  /**
   * Marks a session seen now, unless that was written less than a minute ago: "last seen" stays
   * roughly current for the sessions list without a write per request.
   */
  async touch(sessionId: string): Promise<void> {
    await this.#db
      .update(sessions)
      .set({ lastSeenAt: new Date() })
      .where(
        and(eq(sessions.id, sessionId), lt(sessions.lastSeenAt, new Date(Date.now() - 60_000))),
      )
  }

  /** A user's live (unrevoked, unexpired) sessions, newest first, at most 100. */
  listLive(userId: string): Promise<Session[]> {
    return this.#db
      .select()
      .from(sessions)
      .where(
        and(
          eq(sessions.userId, userId),
          isNull(sessions.revokedAt),
          gt(sessions.expiresAt, new Date()),
        ),
      )
      .orderBy(desc(sessions.createdAt))
      .limit(100)
  }
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
export const currentUserPlugin = fp<{ sessions: Sessions; publicOrigins: readonly string[] }>(
  async (app, { sessions, publicOrigins }) => {
    const plainAllowed = publicOrigins.some((o) => o.startsWith('http:'))
    app.decorateRequest('currentUser', function (this: FastifyRequest) {
      let pending = resolved.get(this)
      if (!pending) {
        pending = lookUp(this, sessions, plainAllowed)
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

async function lookUp(
  request: FastifyRequest,
  sessions: Sessions,
  plainAllowed: boolean,
): Promise<CurrentUser | null> {
  const header = request.headers.authorization
  const bearer = typeof header === 'string' && /^Bearer\s+(\S+)$/i.exec(header)?.[1]
  const cookie = sessionTokenOf(request.headers.cookie, plainAllowed)
  const token = bearer || cookie
  if (!token || token.length > 200) return null
  const found = await sessions.find(token)
  return found ? { ...found, via: bearer ? 'bearer' : 'cookie' } : null
}
