import { randomBytes } from 'node:crypto'
import { lt } from 'drizzle-orm'
import type { Database } from '../db/client.ts'
import { nonces } from '../db/schema.ts'

export type Nonce = typeof nonces.$inferSelect

/**
 * A nonce: 96 hex digits from the system's secure random source (EIP-4361 asks for at least 8
 * alphanumerics). Not viem's `generateSiweNonce`: it reads `Math.random` and consecutive
 * nonces are one window sliding along the same string, so one nonce gives away the next.
 */
const newNonce = () => randomBytes(48).toString('hex')

/** Issues a fresh sign-in nonce valid for `ttlMs`. */
export async function issueNonce(db: Database, ttlMs: number): Promise<Nonce> {
  const now = new Date()
  const [row] = await db
    .insert(nonces)
    .values({
      nonce: newNonce(),
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

/** Sign-in nonces on one database, for the routes that hand them out. */
export class SignInNonces {
  readonly #db: Database

  constructor(db: Database) {
    this.#db = db
  }

  issue(ttlMs: number): Promise<Nonce> {
    return issueNonce(this.#db, ttlMs)
  }

  prune(before: Date): Promise<void> {
    return pruneNonces(this.#db, before)
  }
}
