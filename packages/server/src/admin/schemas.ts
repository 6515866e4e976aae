import { errorBodySchema } from '../errors.ts'

// What the console's routes share: their tag, error answers, and paging.

export const tags = ['admin']
export const consoleErrors = { 401: errorBodySchema, 403: errorBodySchema } as const
export const digits = { type: 'string', pattern: '^[0-9]{1,9}$' } as const
/** Ids of users, sessions and API keys. */
export const recordId = { type: 'string', pattern: '^[A-Za-z0-9_-]{1,80}$' } as const
/** `limit` and `skip` of a console list (`limit` at most `max`). */
export const pagingQuery = {
  type: 'object',
  properties: { limit: digits, skip: digits },
  additionalProperties: false,
} as const

export function paging(
  query: { limit?: string | undefined; skip?: string | undefined },
  fallback = 50,
  max = 200,
): { limit: number; offset: number } {
  return {
    limit: Math.min(max, query.limit === undefined ? fallback : Number(query.limit)),
    offset: query.skip === undefined ? 0 : Number(query.skip),
  }
}
