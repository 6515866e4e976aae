import { Readable } from 'node:stream'
import { createHash } from 'node:crypto'
import { setTimeout as sleep } from 'node:timers/promises'
import { and, eq, lt, sql, type SQL } from 'drizzle-orm'
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify'
import { rowsOf, type Database } from '../db/client.ts'
import { idempotency } from '../db/schema.ts'
import { badRequest, HttpError } from '../errors.ts'

// The records behind `Idempotency-Key`: one row per (scope, key), first `pending`, then holding
// the answer. Claiming is one INSERT … ON CONFLICT, so of two simultaneous retries exactly one
// wins. Records expire after 24 hours; a pending record older than 60 seconds was left by a
// process that died and may be claimed again. See docs/decisions.md ("Idempotency").

const PENDING = 0
const KEY = /^[\x21-\x7e]{1,200}$/
const WAIT_STEP_MS = 20
const WAIT_STEPS = 250

/** What a write needs to claim its key: who sent it, the key, and what "the same request" is. */
export interface IdempotencyClaim {
  scope: string
  key: string
  requestHash: string
}

/** The request's `Idempotency-Key`, checked; undefined when it has none. */
export function idempotencyKeyOf(request: FastifyRequest): string | undefined {
  const key = request.headers['idempotency-key']
  if (key === undefined) return undefined
  if (typeof key !== 'string' || !KEY.test(key)) {
    throw badRequest(
      'Idempotency-Key must be 1 to 200 visible ASCII characters.',
      'invalid_idempotency_key',
    )
  }
  return key
}

/**
 * The key of the `index`th write of a grouped request (a batch): a retry of the whole group after
 * a failure in its middle replays the writes already applied instead of applying them again.
 */
export const subRequestKey = (key: string, index: number): string => `${key.slice(0, 180)}:${index}`

/** The claim of a request with a key (scoped to the signed-in user, or the anonymous address). */
export async function claimOf(request: FastifyRequest): Promise<IdempotencyClaim | undefined> {
  const key = idempotencyKeyOf(request)
  if (key === undefined) return undefined
  const current = await request.currentUser()
  const scope = current ? `user:${current.user.id}` : `anon:${request.ip}`
  const hash = createHash('sha256').update(`${request.method} ${request.url}\n`)
  const body = request.body
  if (body instanceof Readable) {
    // A streamed upload is read only after the claim, so its declared type and length stand
    // for its bytes: the same key on a different file of the same size replays the first answer.
    hash.update(`${request.headers['content-type']} ${request.headers['content-length']}`)
  } else hash.update(Buffer.isBuffer(body) ? body : JSON.stringify(body ?? null))
  return { scope, key, requestHash: hash.digest('hex') }
}

/**
 * The INSERT that claims keys: `source` is a parenthesised SELECT with columns (scope, key, hash,
 * status, answer, at). A key is taken when no record exists, or its record expired or was
 * abandoned. Returns the (scope, key) pairs this statement claimed. Single writes claim with it
 * alone; grouped writes use it as a CTE beside their own INSERT, so record and data commit
 * together.
 */
export function claimStatement(source: SQL): SQL {
  return sql`insert into ${idempotency} (scope, key, request_hash, status, body, created_at)
    select scope, key, hash, status, answer, at from ${source} as claims
    on conflict (scope, key) do update set request_hash = excluded.request_hash,
      status = excluded.status, body = excluded.body, created_at = excluded.created_at
      where ${idempotency.createdAt} < now() - interval '24 hours'
        or (${idempotency.status} = ${PENDING}
          and ${idempotency.createdAt} < now() - interval '60 seconds')
    returning scope, key`
}

/** Claims one key as pending; false when another request holds it. */
export async function claim(db: Database, c: IdempotencyClaim): Promise<boolean> {
  const result = await db.execute(
    claimStatement(sql`(select ${c.scope}::text as scope, ${c.key}::text as key,
      ${c.requestHash}::text as hash, ${PENDING}::int as status, null::jsonb as answer,
      now() as at)`),
  )
  return rowsOf(result).length > 0
}

/** Stores the answer of a claimed key (before the answer leaves, so a retry always finds it). */
export async function record(
  db: Database,
  c: Pick<IdempotencyClaim, 'scope' | 'key'>,
  status: number,
  body: unknown,
): Promise<void> {
  await db
    .update(idempotency)
    .set({ status, body })
    .where(and(eq(idempotency.scope, c.scope), eq(idempotency.key, c.key)))
}

/** Frees a claimed key whose write failed on the server's side, so the client's retry runs. */
export async function release(
  db: Database,
  c: Pick<IdempotencyClaim, 'scope' | 'key'>,
): Promise<void> {
  await db
    .delete(idempotency)
    .where(and(eq(idempotency.scope, c.scope), eq(idempotency.key, c.key)))
}

async function waitForAnswer(db: Database, c: IdempotencyClaim) {
  for (let step = 0; ; step++) {
    const [row] = await db
      .select()
      .from(idempotency)
      .where(and(eq(idempotency.scope, c.scope), eq(idempotency.key, c.key)))
    if (!row || row.status !== PENDING || step >= WAIT_STEPS) return row
    await sleep(WAIT_STEP_MS)
  }
}

/**
 * Answers a request whose key is already taken: the stored answer when it is the same request
 * (header `Idempotent-Replayed: true`), 422 for another request, 503 (retry) while the first is
 * still running.
 */
export async function replay(
  db: Database,
  c: IdempotencyClaim,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const stored = await waitForAnswer(db, c)
  if (stored && stored.requestHash !== c.requestHash) {
    throw new HttpError(
      422,
      'idempotency_key_reused',
      'This Idempotency-Key was already used for a different request. Use a new key.',
    )
  }
  if (!stored || stored.status === PENDING) {
    // Still running elsewhere (or just freed after a 5xx): a 503 makes the client retry later.
    reply.header('retry-after', '1')
    throw new HttpError(
      503,
      'idempotency_in_progress',
      'A request with this Idempotency-Key is still being processed. Retry shortly.',
    )
  }
  reply.header('idempotent-replayed', 'true').status(stored.status)
  return stored.body === null ? reply.send() : reply.send(stored.body)
}

/**
 * What a server does after each claim: every 1000th one also deletes the expired records, so
 * no timer is needed.
 */
export function expiryAfterClaims(db: Database, log: FastifyBaseLogger): () => void {
  let claims = 0
  return () => {
    if (++claims % 1000 !== 0) return
    void db
      .delete(idempotency)
      .where(lt(idempotency.createdAt, sql`now() - interval '24 hours'`))
      .catch((error: unknown) => log.warn({ err: error }, 'idempotency cleanup failed'))
  }
}

/** The idempotency records on one database, for the plugin and the routes that replay. */
export class IdempotencyRecords {
  readonly #db: Database

  constructor(db: Database) {
    this.#db = db
  }

  claim(c: IdempotencyClaim): Promise<boolean> {
    return claim(this.#db, c)
  }

  record(c: Pick<IdempotencyClaim, 'scope' | 'key'>, status: number, body: unknown): Promise<void> {
    return record(this.#db, c, status, body)
  }

  release(c: Pick<IdempotencyClaim, 'scope' | 'key'>): Promise<void> {
    return release(this.#db, c)
  }

  replay(c: IdempotencyClaim, reply: FastifyReply): Promise<FastifyReply> {
    return replay(this.#db, c, reply)
  }

  /** See `expiryAfterClaims`: each caller counts its own claims. */
  expiryAfterClaims(log: FastifyBaseLogger): () => void {
    return expiryAfterClaims(this.#db, log)
  }
}
