import fp from 'fastify-plugin'
import { claimOf, type IdempotencyClaim, type IdempotencyRecords } from './store.ts'

// Every write route declares how it honours `Idempotency-Key`, in its route config:
//   idempotent: 'claim'  the key is claimed before the handler runs and the answer recorded
//                        before it is sent (a 5xx frees the key, so the client's retry runs);
//   idempotent: 'within' the handler writes the record itself, in the same transaction as its
//                        data (group-committed creates): it gets the claim as
//                        `request.idempotency` and calls `replay()` when the key was taken.
// A repeat of a recorded request gets the recorded answer; see ./store.ts.

declare module 'fastify' {
  interface FastifyContextConfig {
    /** How this write route honours `Idempotency-Key` (see idempotency/plugin.ts). */
    idempotent?: 'claim' | 'within'
  }
  interface FastifyRequest {
    /** The key's claim, when the request carries `Idempotency-Key` on an idempotent route. */
    idempotency?: (IdempotencyClaim & { recordOnSend: boolean }) | undefined
  }
}

export const idempotencyPlugin = fp<{ records: IdempotencyRecords }>(
  async (app, { records }) => {
    const afterClaim = records.expiryAfterClaims(app.log)
    app.addHook('preHandler', async (request, reply) => {
      const mode = request.routeOptions.config.idempotent
      if (!mode) return
      const c = await claimOf(request)
      if (!c) return
      if (mode === 'within') {
        request.idempotency = { ...c, recordOnSend: false }
        return
      }
      if (!(await records.claim(c))) return records.replay(c, reply)
      request.idempotency = { ...c, recordOnSend: true }
      afterClaim()
    })

    app.addHook('onSend', async (request, reply, payload) => {
      const claimed = request.idempotency
      if (!claimed?.recordOnSend) return payload
      request.idempotency = undefined
      // A refusal by a rate limit changed nothing: the same key may be sent again later.
      if (reply.statusCode >= 500 || reply.statusCode === 429) {
        await records.release(claimed)
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
      await records.record(claimed, reply.statusCode, body)
      return payload
    })
  },
  { name: 'portico-idempotency', dependencies: ['portico-current-user'] },
)
