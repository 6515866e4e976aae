import { errorBodySchema } from '../errors.ts'

// What the console's routes share: their tag, error answers, and paging.

export const tags = ['admin']
export const consoleErrors = { 401: errorBodySchema, 403: errorBodySchema } as const

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
