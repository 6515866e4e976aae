import { eventBodySchema, eventStatsQuerySchema, eventStatsSchema } from '@portico/sdk/wire'
import { errorBodySchema } from '../errors.ts'

const tags = ['events']

/** Visitors and page views (the figures of each row of the audience answer). */
const figures = { visitors: { type: 'integer' }, views: { type: 'integer' } } as const
const ranked = <Key extends string>(key: Key) =>
  ({
    type: 'array',
    items: {
      type: 'object',
      properties: { [key]: { type: 'string' }, ...figures } as Record<Key, { type: 'string' }> &
        typeof figures,
      required: [key, 'visitors', 'views'],
    },
  }) as const
// The audience takes the statistics' query but `event`: it reads page views only.
const { event: _event, ...audienceQuery } = eventStatsQuerySchema.properties
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
  audience: {
    tags,
    summary:
      'Unique visitors and page views over time, top pages, referrers and devices, from the page views (admins only)',
    querystring: { ...eventStatsQuerySchema, properties: audienceQuery },
    response: {
      200: {
        type: 'object',
        properties: {
          buckets: {
            type: 'array',
            items: {
              type: 'object',
              properties: { start: { type: 'string' }, ...figures },
              required: ['start', 'visitors', 'views'],
            },
          },
          ...figures,
          pages: ranked('path'),
          referrers: ranked('referrer'),
          devices: ranked('device'),
        },
        required: ['buckets', 'visitors', 'views', 'pages', 'referrers', 'devices'],
      },
      400: errorBodySchema,
      401: errorBodySchema,
      403: errorBodySchema,
    },
  },
} as const
