import { placeholderUserIds } from '@portico/sdk/wire'
import { and, count, desc, eq, gt, ilike, isNull, notInArray, sql } from 'drizzle-orm'
import { recordAudit } from '../audit/log.ts'
import type { Database } from '../db/client.ts'
import { eventCounts, files, sessions, users } from '../db/schema.ts'
import { createApiKey, listApiKeys, revokeApiKey } from '../rpc/api-keys.ts'

/** Users who are people: not the server's own principals (PLACEHOLDER_USERS). */
const people = notInArray(users.id, [...placeholderUserIds])

/**
 * What the console's people routes read and change: the users who are people, their sessions,
 * the server's totals and the gateway API keys. A revocation and its audit entry commit together.
 */
export class People {
  readonly #db: Database

  constructor(db: Database) {
    this.#db = db
  }

  count() {
    return this.#db.select({ n: count() }).from(users).where(people)
  }

  activeSessionCount(now: Date) {
    return this.#db
      .select({ n: count() })
      .from(sessions)
      .where(and(isNull(sessions.revokedAt), gt(sessions.expiresAt, now)))
  }

  fileTotals() {
    return this.#db
      .select({ n: count(), bytes: sql<string>`coalesce(sum(${files.size}), 0)` })
      .from(files)
  }

  /** From the hourly counts the event writer keeps: no scan of the day's events. */
  eventsToday() {
    return this.#db
      .select({ n: sql<number>`coalesce(sum(${eventCounts.count}), 0)`.mapWith(Number) })
      .from(eventCounts)
      .where(sql`${eventCounts.hour} >= date_trunc('day', now())`)
  }

  /** Newest sign-in first; `search` matches part of the address. */
  list(search: string | undefined, page: { limit: number; offset: number }) {
    const active = sql<number>`count(${sessions.id}) filter (where ${sessions.revokedAt} is null and ${sessions.expiresAt} > now())`
    return this.#db
      .select({
        id: users.id,
        address: users.address,
        firstSignInAt: users.firstSignInAt,
        lastSignInAt: users.lastSignInAt,
        activeSessions: active.mapWith(Number),
        lastSeenAt: sql<Date | null>`max(${sessions.lastSeenAt})`.mapWith(
          (value: string | Date | null) => (value ? new Date(value).toISOString() : null),
        ),
      })
      .from(users)
      .leftJoin(sessions, eq(sessions.userId, users.id))
      .where(
        search ? and(people, ilike(users.address, `%${search.replace(/[%_\\]/g, '')}%`)) : people,
      )
      .groupBy(users.id)
      .orderBy(desc(users.lastSignInAt), users.id)
      .limit(page.limit)
      .offset(page.offset)
  }

  /** A user's sessions, last used first. */
  sessionsOf(userId: string) {
    return this.#db
      .select({
        id: sessions.id,
        chainId: sessions.chainId,
        userAgent: sessions.userAgent,
        createdAt: sessions.createdAt,
        lastSeenAt: sessions.lastSeenAt,
        expiresAt: sessions.expiresAt,
        revokedAt: sessions.revokedAt,
      })
      .from(sessions)
      .where(eq(sessions.userId, userId))
      .orderBy(desc(sessions.lastSeenAt))
      .limit(200)
  }

  /** Revokes one active session, with its audit entry; false when there is none. */
  revokeSession(sessionId: string, actor: string): Promise<boolean> {
    return this.#db.transaction(async (tx) => {
      const rows = await tx
        .update(sessions)
        .set({ revokedAt: new Date() })
        .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)))
        .returning({ id: sessions.id, userId: sessions.userId })
      if (rows.length)
        await recordAudit(tx, {
          actor,
          action: 'session.revoke',
          target: `session/${rows[0]!.id}`,
          before: { userId: rows[0]!.userId, revoked: false },
          after: { revoked: true },
        })
      return rows.length > 0
    })
  }

  /** Revokes every active session of a user, with the audit entry: how many there were. */
  revokeSessionsOf(userId: string, actor: string): Promise<number> {
    return this.#db.transaction(async (tx) => {
      const rows = await tx
        .update(sessions)
        .set({ revokedAt: new Date() })
        .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)))
        .returning({ id: sessions.id })
      await recordAudit(tx, {
        actor,
        action: 'user.revoke_sessions',
        target: `user/${userId}`,
        before: { activeSessions: rows.length },
        after: { activeSessions: 0 },
      })
      return rows.length
    })
  }

  listApiKeys() {
    return listApiKeys(this.#db)
  }

  createApiKey(label: string) {
    return createApiKey(this.#db, label)
  }

  revokeApiKey(keyId: string) {
    return revokeApiKey(this.#db, keyId)
  }
}
