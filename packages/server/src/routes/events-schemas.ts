import { errorBodySchema } from '../errors.ts'

const tags = ['events']
const countOf = (key: string) =>
  ({
    type: 'array',
    items: {
      type: 'object',
      properties: { [key]: { type: 'string' }, count: { type: 'integer' } },
      required: [key, 'count'],
    },
  }) as const

/** Event names: one printable line. Subdomains: a host name as `location.hostname` gives it. */
const eventName = {
  type: 'string',
  minLength: 1,
  maxLength: 100,
  pattern: '^[^\\u0000-\\u001f\\u007f]+$',
} as const
const subdomain = { type: 'string', maxLength: 253, pattern: '^[A-Za-z0-9.:\\[\\]-]*$' } as const

export const eventSchemas = {
  track: {
    tags,
    summary: 'Record an event (stored durably before the answer)',
    body: {
      type: 'object',
      additionalProperties: false,
      properties: {
        subdomain: { ...subdomain, description: 'Host name of the page, e.g. location.hostname' },
        event: eventName,
        options: {
          type: 'object',
          maxProperties: 50,
          propertyNames: { maxLength: 100 },
          description: 'Free-form details, at most 50 keys and 4096 bytes of JSON',
        },
      },
      required: ['subdomain', 'event'],
    },
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
    querystring: {
      type: 'object',
      additionalProperties: false,
      properties: {
        from: { type: 'string', format: 'date-time', description: 'Default: 30 days before `to`' },
        to: { type: 'string', format: 'date-time', description: 'Default: now' },
        bucket: { type: 'string', enum: ['hour', 'day'], default: 'day' },
        subdomain,
        event: eventName,
      },
    },
    response: {
      200: {
        type: 'object',
        properties: {
          buckets: {
            type: 'array',
            items: {
              type: 'object',
              properties: {
                start: { type: 'string', format: 'date-time' },
                count: { type: 'integer' },
              },
              required: ['start', 'count'],
            },
          },
          events: countOf('event'),
          subdomains: countOf('subdomain'),
          total: { type: 'integer' },
        },
        required: ['buckets', 'events', 'subdomains', 'total'],
      },
      400: errorBodySchema,
      401: errorBodySchema,
      403: errorBodySchema,
    },
  },
} as const
