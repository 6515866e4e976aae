import { errorBodySchema } from '../errors.ts'

// JSON schemas of the sign-in and session routes: Fastify validates with them and the OpenAPI
// document is generated from them.

const tags = ['auth']
const iso = { type: 'string', format: 'date-time' } as const
const errors = { 400: errorBodySchema, 401: errorBodySchema, 429: errorBodySchema } as const

const userShort = {
  type: 'object',
  properties: { id: { type: 'string' }, address: { type: 'string' } },
  required: ['id', 'address'],
} as const

const signedIn = {
  type: 'object',
  properties: {
    user: userShort,
    session: {
      type: 'object',
      properties: { id: { type: 'string' }, expiresAt: iso },
      required: ['id', 'expiresAt'],
    },
    token: { type: 'string', description: 'Only in bearer mode: send as `Authorization: Bearer`.' },
  },
  required: ['user', 'session'],
} as const

export const authSchemas = {
  nonce: {
    tags,
    summary: 'Issue a single-use sign-in nonce with the server time and what the message must name',
    response: {
      200: {
        type: 'object',
        properties: {
          nonce: { type: 'string' },
          serverTime: iso,
          appId: { type: 'string' },
          domain: { type: 'string' },
          uri: { type: 'string' },
          chainIds: { type: 'array', items: { type: 'integer' } },
          expiresAt: iso,
          statement: { type: 'string' },
        },
        required: [
          'nonce',
          'serverTime',
          'appId',
          'domain',
          'uri',
          'chainIds',
          'expiresAt',
          'statement',
        ],
      },
      429: errorBodySchema,
    },
  },
  verify: {
    tags,
    summary: 'Sign in with a signed EIP-4361 message; starts a session (cookie or bearer token)',
    body: {
      type: 'object',
      additionalProperties: false,
      properties: {
        message: { type: 'string', minLength: 1, maxLength: 4096 },
        signature: { type: 'string', pattern: '^0x[0-9a-fA-F]*$', maxLength: 20_000 },
        mode: { type: 'string', enum: ['cookie', 'bearer'] },
      },
      required: ['message', 'signature'],
    },
    response: { 200: signedIn, ...errors, 503: errorBodySchema },
  },
  session: {
    tags,
    summary: 'The signed-in user and current session, or 401',
    response: {
      200: {
        type: 'object',
        properties: {
          user: {
            type: 'object',
            properties: {
              id: { type: 'string' },
              address: { type: 'string' },
              firstSignInAt: iso,
              lastSignInAt: iso,
            },
            required: ['id', 'address', 'firstSignInAt', 'lastSignInAt'],
          },
          session: {
            type: 'object',
            properties: { id: { type: 'string' }, chainId: { type: 'integer' }, expiresAt: iso },
            required: ['id', 'chainId', 'expiresAt'],
          },
        },
        required: ['user', 'session'],
      },
      401: errorBodySchema,
    },
  },
  logout: {
    tags,
    summary: 'Sign out: revoke the current session and clear the cookie',
    response: { 204: { type: 'null', description: 'Signed out' }, 403: errorBodySchema },
  },
  sessions: {
    tags,
    summary: "The signed-in user's active sessions",
    response: {
      200: {
        type: 'object',
        properties: {
          sessions: {
            type: 'array',
            items: {
              type: 'object',
              properties: {
                id: { type: 'string' },
                createdAt: iso,
                lastSeenAt: iso,
                expiresAt: iso,
                userAgent: { type: ['string', 'null'] },
                chainId: { type: 'integer' },
                current: { type: 'boolean' },
              },
              required: [
                'id',
                'createdAt',
                'lastSeenAt',
                'expiresAt',
                'userAgent',
                'chainId',
                'current',
              ],
            },
          },
        },
        required: ['sessions'],
      },
      401: errorBodySchema,
    },
  },
  revoke: {
    tags,
    summary: 'Revoke one of my sessions',
    params: {
      type: 'object',
      properties: { id: { type: 'string', pattern: '^[0-9a-fA-F-]{1,64}$' } },
      required: ['id'],
    },
    response: {
      204: { type: 'null', description: 'Revoked' },
      401: errorBodySchema,
      403: errorBodySchema,
      404: errorBodySchema,
    },
  },
} as const
