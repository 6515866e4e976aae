import { eventBodySchema, eventStatsQuerySchema, eventStatsSchema } from '@portico/sdk/wire'
import { errorBodySchema } from '../errors.ts'

const tags = ['events']
export const eventSchemas = {
  track: {
    tags,
    summary: 'Record an event (stored durably before the answer)',
    body: eventBodySchema,
    response: {
      202: {
        type: 'object',
        properties: { ok: { type: 'boolean', enum: [true] } },
        required: ['ok'],
      },
      400: errorBodySchema,
      413: errorBodySchema,
      429: errorBodySchema,
    },
  },
  stats: {
    tags,
    summary: 'Event counts per time bucket, event and subdomain (admins only)',
    querystring: eventStatsQuerySchema,
    response: {
      200: eventStatsSchema,
      400: errorBodySchema,
      401: errorBodySchema,
      403: errorBodySchema,
    },
  },
} as const
