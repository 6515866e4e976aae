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

type WireDates<T> = {
  [K in keyof T]: T[K] extends Date ? string : T[K] extends Date | null ? string | null : T[K]
}

/** A row with its dates as ISO strings, as the console's answers carry them. */
export function withIsoDates<T extends object>(row: T): WireDates<T> {
  return Object.fromEntries(
    Object.entries(row).map(([key, value]) => [
      key,
      value instanceof Date ? value.toISOString() : value,
    ]),
  ) as WireDates<T>
}
