import { createHash } from 'node:crypto'
import { setTimeout as sleep } from 'node:timers/promises'
import { and, eq, lt, sql } from 'drizzle-orm'
import fp from 'fastify-plugin'
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify'
import { currentUser } from '../auth/sessions.ts'
import type { Database } from '../db/client.ts'
import { idempotency } from '../db/schema.ts'
import { badRequest, HttpError } from './errors.ts'

// Idempotent writes (design.md section 4, issue 5). A write route opts in with
// `config: { idempotent: true }`. When such a request carries `Idempotency-Key`:
//   1. a pending record (scope, key) is inserted first — ON CONFLICT makes this the one atomic
//      "claim", so of two simultaneous retries exactly one runs the handler;
//   2. the handler's answer is stored before it is sent (status < 500; a 5xx frees the key so
//      the client's retry runs again);
//   3. a repeat with the same method, URL and body gets the stored answer (header
//      `Idempotent-Replayed: true`); the same key with another request → 422; a repeat that
//      arrives while the first is still running waits for its answer.
// Records expire after 24 h. A pending record older than 60 s belongs to a crashed process and
// may be claimed again.

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Apply `Idempotency-Key` handling to this write route. */
    idempotent?: boolean
  }
  interface FastifyRequest {
    idempotencyClaim?: { scope: string; key: string } | undefined
  }
}

const PENDING = 0
const KEY = /^[\x21-\x7e]{1,200}$/
const WAIT_STEP_MS = 20
const WAIT_STEPS = 250

/** Scope of the keys of a signed-in user. */
export const userScope = (userId: string): string => `user:${userId}`

/** Scope of a key: the signed-in user, or the anonymous client's address. */
async function scopeOf(request: FastifyRequest): Promise<string> {
  const current = await currentUser(request)
  return current ? userScope(current.user.id) : `anon:${request.ip}`
}

const claimCounts = new WeakMap<Database, number>()

/** Every 1000th claim on a database also deletes the expired records (no timers needed). */
export function cleanUpNowAndThen(db: Database, log: FastifyBaseLogger): void {
  const n = (claimCounts.get(db) ?? 0) + 1
  claimCounts.set(db, n)
  if (n % 1000 !== 0) return
  void db
    .delete(idempotency)
    .where(lt(idempotency.createdAt, sql`now() - interval '24 hours'`))
    .catch((error: unknown) => log.warn({ err: error }, 'idempotency cleanup failed'))
}

/** SHA-256 of method, URL and body: what "the same request" means for a key. */
export function hashRequest(request: FastifyRequest): string {
  const hash = createHash('sha256').update(`${request.method} ${request.url}\n`)
  const body = request.body
  hash.update(Buffer.isBuffer(body) ? body : JSON.stringify(body ?? null))
  return hash.digest('hex')
}

async function claim(db: Database, scope: string, key: string, requestHash: string) {
  const rows = await db
    .insert(idempotency)
    .values({ scope, key, requestHash, status: PENDING, body: null })
    .onConflictDoUpdate({
      target: [idempotency.scope, idempotency.key],
      set: { requestHash, status: PENDING, body: null, createdAt: sql`now()` },
      setWhere: expiredOrAbandoned(),
    })
    .returning({ scope: idempotency.scope })
  return rows.length > 0
}

async function waitForAnswer(db: Database, scope: string, key: string) {
  for (let step = 0; ; step++) {
    const [row] = await db
      .select()
      .from(idempotency)
      .where(and(eq(idempotency.scope, scope), eq(idempotency.key, key)))
    if (!row || row.status !== PENDING || step >= WAIT_STEPS) return row
    await sleep(WAIT_STEP_MS)
  }
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
 * Answers a request whose key is already taken: the stored answer when it is the same request,
 * 422 for another request, 503 (retry) while the first is still running.
 */
export async function replayStored(
  db: Database,
  claim: { scope: string; key: string; requestHash: string },
  reply: FastifyReply,
): Promise<FastifyReply> {
  const stored = await waitForAnswer(db, claim.scope, claim.key)
  if (stored && stored.requestHash !== claim.requestHash) {
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

/** Condition under which an existing record may be claimed again. */
export function expiredOrAbandoned() {
  return sql`${idempotency.createdAt} < now() - interval '24 hours'
        or (${idempotency.status} = ${PENDING} and ${idempotency.createdAt} < now() - interval '60 seconds')`
}

export const idempotencyPlugin = fp(
  async (app) => {
    app.addHook('preHandler', async (request, reply) => {
      if (!request.routeOptions.config.idempotent) return
      const key = idempotencyKeyOf(request)
      if (key === undefined) return
      const scope = await scopeOf(request)
      const requestHash = hashRequest(request)
      if (await claim(app.db, scope, key, requestHash)) {
        request.idempotencyClaim = { scope, key }
        cleanUpNowAndThen(app.db, request.log)
        return
      }
      return replayStored(app.db, { scope, key, requestHash }, reply)
    })

    app.addHook('onSend', async (request, reply, payload) => {
      const claimed = request.idempotencyClaim
      if (!claimed) return payload
      request.idempotencyClaim = undefined
      const where = and(eq(idempotency.scope, claimed.scope), eq(idempotency.key, claimed.key))
      if (reply.statusCode >= 500) {
        await app.db.delete(idempotency).where(where)
        return payload
      }
      let body: unknown = null
      if (typeof payload === 'string' && payload !== '') {
        try {
          body = JSON.parse(payload)
        } catch {
          body = null
        }
      }
      // Stored before the answer leaves: a retry after a lost answer always finds it.
      await app.db.update(idempotency).set({ status: reply.statusCode, body }).where(where)
      return payload
    })
  },
  { name: 'portico-idempotency' },
)
