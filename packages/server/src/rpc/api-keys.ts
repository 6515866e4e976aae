import { createHash, randomBytes } from 'node:crypto'
import { and, eq, isNull } from 'drizzle-orm'
import type { Database } from '../db/client.ts'
import { apiKeys } from '../db/schema.ts'

/** Only the SHA-256 of a key is stored; the key itself is shown once, when created. */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex')
}

export interface CreatedApiKey {
  id: string
  label: string
  /** The secret. Not stored anywhere: print it once. */
  key: string
}

/** Creates a gateway API key with a label that says who or what uses it. */
export async function createApiKey(db: Database, label: string): Promise<CreatedApiKey> {
  const clean = label.trim()
  if (!clean || clean.length > 100) throw new Error('The label must be 1 to 100 characters.')
  const id = `key_${randomBytes(8).toString('hex')}`
  const key = `pk_${randomBytes(24).toString('base64url')}`
  await db.insert(apiKeys).values({ id, keyHash: hashApiKey(key), label: clean })
  return { id, label: clean, key }
}

export async function listApiKeys(db: Database) {
  return db
    .select({
      id: apiKeys.id,
      label: apiKeys.label,
      createdAt: apiKeys.createdAt,
      revokedAt: apiKeys.revokedAt,
      lastUsedAt: apiKeys.lastUsedAt,
    })
    .from(apiKeys)
    .orderBy(apiKeys.createdAt)
}

/** Revokes a key by id; returns false when no active key has that id. */
export async function revokeApiKey(db: Database, id: string): Promise<boolean> {
  const rows = await db
    .update(apiKeys)
    .set({ revokedAt: new Date() })
    .where(and(eq(apiKeys.id, id), isNull(apiKeys.revokedAt)))
    .returning({ id: apiKeys.id })
  return rows.length > 0
}

/**
 * Checks gateway keys against the database, remembering valid ones for `ttlMs` so the hot path
 * does not query per request. A revoked key therefore stops working within `ttlMs`.
 */
export class ApiKeyVerifier {
  readonly #valid = new Map<string, { id: string; until: number }>()

  constructor(
    private readonly db: Database,
    private readonly ttlMs = 30_000,
  ) {}

  /** Forgets a key revoked here, so this process refuses it at once (others within `ttlMs`). */
  forget(id: string): void {
    for (const [key, entry] of this.#valid) if (entry.id === id) this.#valid.delete(key)
  }

  /** The key's id when it exists and is not revoked, else undefined. */
  async verify(key: string): Promise<string | undefined> {
    if (key.length > 200) return undefined
    const now = Date.now()
    // Remembered by the key itself, so a call in the 30 s window costs no hashing; the
    // process holds the key while it serves the request anyway, and the database never sees it.
    const cached = this.#valid.get(key)
    if (cached && cached.until > now) return cached.id
    const hash = hashApiKey(key)
    const [row] = await this.db
      .select({ id: apiKeys.id })
      .from(apiKeys)
      .where(and(eq(apiKeys.keyHash, hash), isNull(apiKeys.revokedAt)))
      .limit(1)
    if (!row) {
      this.#valid.delete(key)
      return undefined
    }
    if (this.#valid.size > 10_000) this.#valid.clear()
    this.#valid.set(key, { id: row.id, until: now + this.ttlMs })
    // Last use, for the console; as often as the key is checked again, never on the hot path.
    // A stamp that fails (the database closing, a busy moment) leaves only the console's "last
    // used" older, and the next check stamps it again: not worth failing or logging the call for.
    this.db
      .update(apiKeys)
      .set({ lastUsedAt: new Date() })
      .where(eq(apiKeys.id, row.id))
      .catch(() => {})
    return row.id
  }
}
