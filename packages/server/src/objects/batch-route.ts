import type { JsonSchemaToTsProvider } from '@fastify/type-provider-json-schema-to-ts'
import { batchAnswerSchema } from '@portico/sdk/wire'
import { errorBodySchema } from '../errors.ts'
import { answerBudget, withSharedAnswerBudget } from '../http/answer-budget.ts'
import { subRequestKey } from '../idempotency/store.ts'
import { answerTooLarge } from './pages.ts'
import { routePlugin } from '../http/route-plugin.ts'
import type { ServerConfig } from '../config/server.ts'

/** The services these routes use. */
export type BatchNeeds = { config: ServerConfig }

// `POST /api/batch`: up to `batchMaxRequests` object sub-requests, run
// in order. Each one goes through the same route, validation and access check as if it had
// been sent alone (an in-process `inject` with the caller's credentials), and gets its own
// result: one failing sub-request does not stop the others.

/** Only object routes may be batched; this also rules out `..`, nesting and other areas. */
const SUB_PATH = '^/api/classes/[A-Za-z0-9_]{1,64}(/[A-Za-z0-9_-]{1,64})?([?][^#]*)?$'

/** Headers of the outer request that each sub-request carries. */
const FORWARDED = [
  'authorization',
  'cookie',
  'origin',
  'sec-fetch-site',
  'user-agent',
  'x-portico-client',
] as const

export const batchRoutes = routePlugin(
  'portico-batch',
  ['portico-current-user', 'portico-idempotency'],
  async function batchRoutes(fastify, services: BatchNeeds) {
    const app = fastify.withTypeProvider<JsonSchemaToTsProvider>()
    const max = services.config.batchMaxRequests
    app.post(
      '/api/batch',
      {
        config: { idempotent: 'claim' },
        schema: {
          tags: ['objects'],
          summary: `Run up to ${max} object requests, each authorized on its own`,
          body: {
            type: 'object',
            properties: {
              requests: {
                type: 'array',
                minItems: 1,
                maxItems: max,
                items: {
                  type: 'object',
                  properties: {
                    method: { type: 'string', enum: ['GET', 'POST', 'PUT', 'DELETE'] },
                    path: { type: 'string', pattern: SUB_PATH, maxLength: 20_000 },
                    body: { type: 'object' },
                  },
                  required: ['method', 'path'],
                  additionalProperties: false,
                },
              },
            },
            required: ['requests'],
            additionalProperties: false,
          },
          response: {
            200: batchAnswerSchema,
            400: errorBodySchema,
          },
        },
      },
      async (request) => {
        const headers: Record<string, string> = {}
        for (const name of FORWARDED) {
          const value = request.headers[name]
          if (typeof value === 'string') headers[name] = value
        }
        const key = request.headers['idempotency-key']
        const results: { status: number; body: unknown }[] = []
        // The results share one answer budget: a query refuses itself before reading past it.
        await withSharedAnswerBudget(services.config.answerMaxBytes, async (take) => {
          for (const [index, sub] of request.body.requests.entries()) {
            const answer = await app.inject({
              method: sub.method,
              url: sub.path,
              headers: {
                ...headers,
                ...(typeof key === 'string' && sub.method !== 'GET'
                  ? { 'idempotency-key': subRequestKey(key, index) }
                  : {}),
                ...(sub.body === undefined ? {} : { 'content-type': 'application/json' }),
              },
              ...(sub.body === undefined ? {} : { payload: JSON.stringify(sub.body) }),
              remoteAddress: request.ip,
            })
            // A read past the budget is dropped (it was bounded on its own); writes are always reported.
            if (!take(answer.body.length, sub.method !== 'GET')) {
              const refused = answerTooLarge(answer.body.length, answerBudget(Infinity))
              results.push({
                status: refused.statusCode,
                body: { error: { code: refused.code, message: refused.message } },
              })
            } else {
              results.push({ status: answer.statusCode, body: answer.body ? answer.json() : null })
            }
          }
        })
        return { results }
      },
    )
  },
)
