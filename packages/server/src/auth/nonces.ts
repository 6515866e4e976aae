import { and, eq, gt, isNull, lt } from 'drizzle-orm'
import { generateSiweNonce } from 'viem/siwe'
import type { Database } from '../db/client.ts'
import { nonces } from '../db/schema.ts'

export type Nonce = typeof nonces.$inferSelect

/** Issues a fresh sign-in nonce (96 random alphanumerics, as EIP-4361 allows) valid for `ttlMs`. */
export async function issueNonce(db: Database, ttlMs: number): Promise<Nonce> {
  const now = new Date()
  const [row] = await db
    .insert(nonces)
    .values({
      nonce: generateSiweNonce(),
      issuedAt: now,
      expiresAt: new Date(now.getTime() + ttlMs),
    })
    .returning()
  return row!
}

export type ConsumeNonceResult =
  { ok: true; nonce: Nonce } | { ok: false; reason: 'unknown' | 'expired' | 'used' }

/**
 * Marks a nonce used, atomically: of two requests racing with the same nonce exactly one gets
 * `ok`, because the update only matches a row that is still unconsumed (and unexpired).
 * When nothing matched, a second read says why, for a precise rejection.
 */
export async function consumeNonce(db: Database, value: string): Promise<ConsumeNonceResult> {
  const now = new Date()
  const [row] = await db
    .update(nonces)
    .set({ consumedAt: now })
    .where(and(eq(nonces.nonce, value), isNull(nonces.consumedAt), gt(nonces.expiresAt, now)))
    .returning()
  if (row) return { ok: true, nonce: row }
  const [existing] = await db.select().from(nonces).where(eq(nonces.nonce, value)).limit(1)
  if (!existing) return { ok: false, reason: 'unknown' }
  return { ok: false, reason: existing.consumedAt ? 'used' : 'expired' }
}

/** Deletes nonces that expired before `before`; they can no longer be used or explain a rejection. */
export async function pruneNonces(db: Database, before: Date): Promise<void> {
  await db.delete(nonces).where(lt(nonces.expiresAt, before))
}
