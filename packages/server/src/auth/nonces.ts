import { lt } from 'drizzle-orm'
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

/** Deletes nonces that expired before `before`; they can no longer be used or explain a rejection. */
export async function pruneNonces(db: Database, before: Date): Promise<void> {
  await db.delete(nonces).where(lt(nonces.expiresAt, before))
}
