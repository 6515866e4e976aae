import { randomBytes } from 'node:crypto'
import { and, eq, gt, isNull, sql } from 'drizzle-orm'
import type { Database } from '../db/client.ts'
import { mailTokens } from '../db/schema.ts'
import { hashToken } from './sessions.ts'

// The tokens of the links the server mails: a password reset or an email verification. Each is
// single-use and expires; only its SHA-256 is stored, so a leaked table opens nothing.

export type MailPurpose = 'reset' | 'verify'

/** How long a link works: a reset for an hour, a verification for a day. */
export const MAIL_TOKEN_TTL_MS: Record<MailPurpose, number> = {
  reset: 60 * 60_000,
  verify: 24 * 60 * 60_000,
}

/** A new token for `purpose`; the user's earlier unused ones of that purpose stop working. */
export async function issueMailToken(
  db: Database,
  p: { userId: string; purpose: MailPurpose; email: string },
): Promise<string> {
  const token = randomBytes(32).toString('base64url')
  await db.transaction(async (tx) => {
    await tx
      .update(mailTokens)
      .set({ usedAt: new Date() })
      .where(
        and(
          eq(mailTokens.userId, p.userId),
          eq(mailTokens.purpose, p.purpose),
          isNull(mailTokens.usedAt),
        ),
      )
    await tx.insert(mailTokens).values({
      tokenHash: hashToken(token),
      userId: p.userId,
      purpose: p.purpose,
      email: p.email,
      expiresAt: new Date(Date.now() + MAIL_TOKEN_TTL_MS[p.purpose]),
    })
  })
  return token
}

const live = (token: string, purpose: MailPurpose) =>
  and(
    eq(mailTokens.tokenHash, hashToken(token)),
    eq(mailTokens.purpose, purpose),
    isNull(mailTokens.usedAt),
    gt(mailTokens.expiresAt, sql`now()`),
  )

/** Whether `token` still works (the reset page asks before showing its form). */
export async function mailTokenWorks(
  db: Database,
  token: string,
  purpose: MailPurpose,
): Promise<boolean> {
  const [row] = await db
    .select({ userId: mailTokens.userId })
    .from(mailTokens)
    .where(live(token, purpose))
    .limit(1)
  return row !== undefined
}

/**
 * Uses `token` up: its user and the address it was mailed to, or undefined when it is unknown,
 * used or expired. Of two uses at once exactly one gets it. `db` may be a transaction: the token
 * is then used up only if it commits.
 */
export async function useMailToken(
  db: Database,
  token: string,
  purpose: MailPurpose,
): Promise<{ userId: string; email: string } | undefined> {
  const [row] = await db
    .update(mailTokens)
    .set({ usedAt: new Date() })
    .where(live(token, purpose))
    .returning({ userId: mailTokens.userId, email: mailTokens.email })
  return row
}
