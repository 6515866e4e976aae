import { randomBytes, randomUUID } from 'node:crypto'
import bcrypt from 'bcryptjs'
import { and, eq, ne, sql } from 'drizzle-orm'
import type { Database } from '../db/client.ts'
import { passwordLogins, sessions, users } from '../db/schema.ts'
import { hashToken } from './sessions.ts'

// Username/password users (the Parse-compatible API). A password user is a Portico user whose
// `users.address` is null until they link a wallet; their username, email and bcrypt hash are a
// row of `password_logins`, which no route serves. Hashes are bcrypt as Parse Server writes
// them (`$2a$` / `$2b$`, cost 10), so hashes imported from Parse keep working.

/** bcrypt's cost: Parse Server's (its `bcryptjs` default), about 70 ms a hash on one core. */
export const BCRYPT_COST = 10

/** bcrypt reads 72 bytes at most: a longer password would match any with the same first 72. */
export const MAX_PASSWORD_BYTES = 72

/** A hash bcrypt can check: `$2a$`, `$2b$` or `$2y$`, a cost, 53 characters of salt and hash. */
export const BCRYPT_HASH = /^\$2[aby]\$\d{2}\$[./A-Za-z0-9]{53}$/

/**
 * A hash compared against when no user has the name, so that a wrong name takes as long as a
 * wrong password (answers' timing does not tell which usernames exist). Any hash of cost 10
 * does (a match is never taken: no user goes with it); a written one spares every start the
 * 70 ms of making one.
 */
export const NOBODY_HASH = '$2b$10$RuArovT0pRIPQYt9SG.nOegFDAEFbgHgjqsZPyIdiGae/o3OFccIG'

/**
 * The stored "hash" of a login that no password opens yet: an imported user whose export had no
 * hash (a Parse Dashboard export never has one) signs in once a password reset sets one.
 */
export const NO_PASSWORD = '!'

export const hashPassword = (password: string) => bcrypt.hash(password, BCRYPT_COST)

/** The login row of a user, by id. */
export type PasswordLogin = typeof passwordLogins.$inferSelect

/** Which of a new login's unique values is taken. */
export type LoginClash = 'username' | 'email'

/** The login whose username (or email) is `name`, compared case-insensitively. */
export async function findLogin(
  db: Database,
  by: { username: string } | { email: string } | { userId: string },
): Promise<PasswordLogin | undefined> {
  const where =
    'userId' in by
      ? eq(passwordLogins.userId, by.userId)
      : 'username' in by
        ? sql`lower(${passwordLogins.username}) = lower(${by.username})`
        : sql`lower(${passwordLogins.email}) = lower(${by.email})`
  const [row] = await db.select().from(passwordLogins).where(where).limit(1)
  return row
}

/**
 * The login that `password` opens: found by username (exactly as Parse compares it at log-in:
 * a user who signed up as `Ann` logs in as `Ann`) or by email, and the password checked.
 */
export async function checkLogin(
  db: Database,
  by: { username?: string | undefined; email?: string | undefined },
  password: string,
): Promise<PasswordLogin | undefined> {
  const conditions = []
  if (by.username !== undefined) conditions.push(eq(passwordLogins.username, by.username))
  if (by.email !== undefined)
    conditions.push(sql`lower(${passwordLogins.email}) = lower(${by.email})`)
  const [row] = conditions.length
    ? await db
        .select()
        .from(passwordLogins)
        .where(and(...conditions))
        .limit(1)
    : []
  // A login without a password is compared as a missing one is: the answer takes as long.
  const opens = row && row.passwordHash !== NO_PASSWORD ? row : undefined
  const valid = await bcrypt.compare(password, opens?.passwordHash ?? NOBODY_HASH)
  return valid && opens ? opens : undefined
}

/** Which unique value of `login` another user already has (case-insensitively), if any. */
export async function clashOf(
  db: Database,
  login: { userId?: string; username?: string | undefined; email?: string | null | undefined },
): Promise<LoginClash | undefined> {
  const others = login.userId ? ne(passwordLogins.userId, login.userId) : undefined
  if (login.username !== undefined) {
    const [row] = await db
      .select({ id: passwordLogins.userId })
      .from(passwordLogins)
      .where(and(sql`lower(${passwordLogins.username}) = lower(${login.username})`, others))
      .limit(1)
    if (row) return 'username'
  }
  if (login.email) {
    const [row] = await db
      .select({ id: passwordLogins.userId })
      .from(passwordLogins)
      .where(and(sql`lower(${passwordLogins.email}) = lower(${login.email})`, others))
      .limit(1)
    if (row) return 'email'
  }
  return undefined
}

/** Whether `error` is the database refusing a duplicate (a unique index). */
const isUniqueViolation = (error: unknown) => {
  const code = (error as { code?: unknown }).code
  const cause = (error as { cause?: { code?: unknown } }).cause?.code
  return code === '23505' || cause === '23505'
}

export interface NewPasswordUser {
  /** The user's id (an imported user keeps theirs); a new one when absent. */
  id?: string
  username: string
  email?: string | undefined
  emailVerified?: boolean
  /** The bcrypt hash (hashPassword, or one imported from Parse). */
  passwordHash: string
  createdAt?: Date
}

/**
 * Creates a password user (their `users` row and login) in one transaction. A username or
 * email another user has (case-insensitively) is refused as a clash, even when two sign-ups
 * race: the unique indexes decide.
 */
export async function createPasswordUser(
  db: Database,
  user: NewPasswordUser,
): Promise<{ id: string } | { clash: LoginClash | 'id' }> {
  const id = user.id ?? randomUUID()
  const at = user.createdAt ?? new Date()
  const clash = await clashOf(db, user)
  if (clash) return { clash }
  try {
    return await db.transaction(async (transaction) => {
      const tx = transaction as unknown as Database
      const made = await tx
        .insert(users)
        .values({ id, address: null, firstSignInAt: at, lastSignInAt: at })
        .onConflictDoNothing()
        .returning({ id: users.id })
      if (!made.length) return { clash: 'id' as const }
      await tx.insert(passwordLogins).values({
        userId: id,
        username: user.username,
        email: user.email ?? null,
        emailVerified: user.emailVerified ?? false,
        passwordHash: user.passwordHash,
        passwordChangedAt: at,
      })
      return { id }
    })
  } catch (error) {
    if (!isUniqueViolation(error)) throw error
    // Another sign-up took the name a moment ago.
    return { clash: (await clashOf(db, user)) ?? 'username' }
  }
}

/**
 * Changes a login's username, email or password hash; a clash with another user is refused.
 * A new email is unverified; a new password is dated (for the sessions it ends).
 */
export async function updateLogin(
  db: Database,
  userId: string,
  change: { username?: string; email?: string | null; passwordHash?: string },
): Promise<LoginClash | undefined> {
  const clash = await clashOf(db, { userId, ...change })
  if (clash) return clash
  const set: Partial<PasswordLogin> = {}
  if (change.username !== undefined) set.username = change.username
  if (change.email !== undefined) {
    set.email = change.email
    set.emailVerified = false
  }
  if (change.passwordHash !== undefined) {
    set.passwordHash = change.passwordHash
    set.passwordChangedAt = new Date()
  }
  if (Object.keys(set).length === 0) return undefined
  try {
    await db.update(passwordLogins).set(set).where(eq(passwordLogins.userId, userId))
  } catch (error) {
    if (!isUniqueViolation(error)) throw error
    return (await clashOf(db, { userId, ...change })) ?? 'username'
  }
  return undefined
}

/** Marks `email` verified for the user, if it is still their email. */
export async function markEmailVerified(
  db: Database,
  userId: string,
  email: string,
): Promise<boolean> {
  const rows = await db
    .update(passwordLogins)
    .set({ emailVerified: true })
    .where(
      and(eq(passwordLogins.userId, userId), sql`lower(${passwordLogins.email}) = lower(${email})`),
    )
    .returning({ id: passwordLogins.userId })
  return rows.length > 0
}

/** Starts a session for a password user (their log-in or sign-up); returns its token. */
export async function startPasswordSession(
  db: Database,
  p: { userId: string; ttlMs: number; userAgent?: string | undefined },
): Promise<{ token: string; sessionId: string }> {
  const token = randomBytes(32).toString('base64url')
  const sessionId = randomUUID()
  await db.transaction(async (tx) => {
    await tx.insert(sessions).values({
      id: sessionId,
      tokenHash: hashToken(token),
      userId: p.userId,
      // Sessions record the chain a wallet signed in on; a password names none.
      chainId: 0,
      userAgent: p.userAgent?.slice(0, 300) ?? null,
      expiresAt: new Date(Date.now() + p.ttlMs),
    })
    await tx.update(users).set({ lastSignInAt: new Date() }).where(eq(users.id, p.userId))
  })
  return { token, sessionId }
}

/** Ends every live session of a user but `keep` (Parse ends them all when a password changes). */
export async function revokeSessions(db: Database, userId: string, keep?: string): Promise<number> {
  const rows = await db
    .update(sessions)
    .set({ revokedAt: new Date() })
    .where(
      and(
        eq(sessions.userId, userId),
        sql`${sessions.revokedAt} is null`,
        keep === undefined ? undefined : ne(sessions.id, keep),
      ),
    )
    .returning({ id: sessions.id })
  return rows.length
}
