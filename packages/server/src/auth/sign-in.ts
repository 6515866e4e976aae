import { randomBytes, randomUUID } from 'node:crypto'
import { eq, sql } from 'drizzle-orm'
import { rowsOf, type Database } from '../db/client.ts'
import { createCoalescer } from '../db/coalesce.ts'
import { nonces, sessions, userAddresses, users } from '../db/schema.ts'
import { HttpError } from '../errors.ts'
import { hashToken } from './sessions.ts'

export interface CompleteSignInParameters {
  nonce: string
  /** Checksummed address whose signature was verified. */
  address: string
  chainId: number
  /** The message's Issued At: it may not predate the nonce by more than `skewMs`. */
  issuedAt: Date
  skewMs: number
  userAgent?: string | undefined
  ttlMs: number
}

export interface CompleteSignInResult {
  /** The user the address signs in as, with their primary address (maybe another one). */
  user: { id: string; address: string }
  session: { id: string; expiresAt: Date }
  token: string
}

/** Why a nonce could not be consumed, in the words the client sees (each refusal its own code). */
const nonceRefusals = {
  unknown: ['nonce_unknown', 'This nonce was not issued by this server. Fetch a new one.'],
  expired: ['nonce_expired', 'This nonce has expired. Fetch a new one and sign again.'],
  used: ['nonce_used', 'This nonce was already used. Fetch a new one and sign again.'],
  // The message must have been written after its nonce was issued, not reused from before.
  predates: ['siwe_issued_at_not_fresh', 'The message predates its nonce.'],
} as const

const refuse = (reason: keyof typeof nonceRefusals) =>
  new HttpError(401, nonceRefusals[reason][0], nonceRefusals[reason][1])

/**
 * Consumes the nonce, finds or creates the user and starts a session, all in ONE statement,
 * atomic: the user and session rows exist only
 * if this request is the one that consumed the nonce (`UPDATE … WHERE consumed_at IS NULL`), so
 * of two requests racing with one message exactly one gets a session. When nothing was
 * consumed, a second read says why.
 *
 * The address signs in as the user it is linked to (`user_addresses`); an address linked to
 * nobody makes a new user, whose first address it is, with its address row. Two first sign-ins
 * of one new address at once meet on `users.address` (unique) and share the user.
 */
async function signInStatement(
  db: Database,
  p: CompleteSignInParameters,
): Promise<CompleteSignInResult | null> {
  const token = randomBytes(32).toString('base64url')
  const sessionId = randomUUID()
  const expiresAt = new Date(Date.now() + p.ttlMs)
  const latestIssue = new Date(p.issuedAt.getTime() + p.skewMs)
  const result = await db.execute(sql`
    with consumed as (
      update ${nonces} set consumed_at = now()
      where nonce = ${p.nonce}::text and consumed_at is null and expires_at > now()
        and issued_at <= ${latestIssue.toISOString()}::timestamptz
      returning nonce
    ), linked as (
      update ${users} u set last_sign_in_at = now()
      from ${userAddresses} a
      where a.address = ${p.address}::text and u.id = a.user_id and exists (select 1 from consumed)
      returning u.id, u.address
    ), made as (
      insert into ${users} (id, address, first_sign_in_at, last_sign_in_at)
      select ${randomUUID()}::text, ${p.address}::text, now(), now() from consumed
      where not exists (select 1 from ${userAddresses} where address = ${p.address}::text)
      on conflict (address) do update set last_sign_in_at = excluded.last_sign_in_at
      returning id, address
    ), addressed as (
      insert into ${userAddresses} (address, user_id)
      select ${p.address}::text, id from made
      on conflict (address) do nothing
    ), signed_in as (
      select id, address from linked union all select id, address from made
    ), started as (
      insert into ${sessions} (id, token_hash, user_id, chain_id, user_agent, expires_at)
      select ${sessionId}::text, ${hashToken(token)}::text, id, ${p.chainId}::int,
        ${p.userAgent?.slice(0, 300) ?? null}::text,
        ${expiresAt.toISOString()}::timestamptz
      from signed_in
      returning user_id
    )
    select s.id, s.address from signed_in s join started on started.user_id = s.id`)
  const [row] = rowsOf<{ id: string; address: string }>(result)
  return row ? { user: row, session: { id: sessionId, expiresAt }, token } : null
}

/** Why `nonce` could not be consumed (it was not: it is unknown, used, expired or too late). */
async function nonceRefusal(db: Database, nonce: string): Promise<HttpError> {
  const [existing] = await db.select().from(nonces).where(eq(nonces.nonce, nonce)).limit(1)
  if (!existing) return refuse('unknown')
  if (existing.consumedAt) return refuse('used')
  if (existing.expiresAt.getTime() <= Date.now()) return refuse('expired')
  return refuse('predates')
}

/**
 * Uses up a nonce for a signed message that starts no session (linking a wallet), with the
 * checks and refusals of a sign-in. `db` may be a transaction: the nonce is then used up only if
 * it commits.
 */
export async function consumeNonce(
  db: Database,
  p: Pick<CompleteSignInParameters, 'nonce' | 'issuedAt' | 'skewMs'>,
): Promise<void> {
  const latestIssue = new Date(p.issuedAt.getTime() + p.skewMs)
  const consumed = await db.execute(sql`
    update ${nonces} set consumed_at = now()
    where nonce = ${p.nonce}::text and consumed_at is null and expires_at > now()
      and issued_at <= ${latestIssue.toISOString()}::timestamptz
    returning nonce`)
  if (rowsOf(consumed).length === 0) throw await nonceRefusal(db, p.nonce)
}

/**
 * Completes sign-ins whose signature was verified, on one database. Concurrent sign-ins share one
 * transaction (group commit, db/coalesce.ts): one commit for the group, each answered after it.
 */
export class SignIns {
  readonly #db: Database
  readonly #grouped: (p: CompleteSignInParameters) => Promise<CompleteSignInResult | null>

  constructor(db: Database) {
    this.#db = db
    this.#grouped = createCoalescer(async (items: CompleteSignInParameters[]) => {
      // A lone sign-in commits on its own; a transaction would only add two round trips.
      if (items.length === 1) return [await signInStatement(db, items[0]!)]
      return db.transaction(async (tx) => {
        const results = []
        for (const item of items)
          results.push(await signInStatement(tx as unknown as Database, item))
        return results
      })
    })
  }

  /**
   * Cloud code's `beforeLogin`: may refuse a verified sign-in (it throws). The session it would
   * have started is ended before the refusal is answered, so its token never reaches anyone.
   */
  beforeLogin: ((user: { id: string }) => Promise<void>) | undefined

  /** Consumes the nonce and starts the session; refused as the nonce's state says. */
  async complete(p: CompleteSignInParameters): Promise<CompleteSignInResult> {
    const done = await this.#grouped(p)
    if (!done) throw await nonceRefusal(this.#db, p.nonce)
    if (this.beforeLogin) {
      try {
        await this.beforeLogin(done.user)
      } catch (error) {
        await this.#db
          .update(sessions)
          .set({ revokedAt: new Date() })
          .where(eq(sessions.id, done.session.id))
        throw error
      }
    }
    return done
  }
}
