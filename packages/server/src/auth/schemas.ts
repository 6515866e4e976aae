import {
  linkedWalletsAnswerSchema,
  linkWalletBodySchema,
  nonceAnswerSchema,
  sessionAnswerSchema,
  sessionsAnswerSchema,
  signInAnswerSchema,
  verifyBodySchema,
} from '@portico/sdk/wire'
import { errorBodySchema } from '../errors.ts'

// JSON schemas of the sign-in and session routes: Fastify validates with them and the OpenAPI
// document is generated from them. The shapes of bodies and answers are the shared wire contract.

const tags = ['auth']
const errors = { 400: errorBodySchema, 401: errorBodySchema, 429: errorBodySchema } as const

export const authSchemas = {
  nonce: {
    tags,
    summary: 'Issue a single-use sign-in nonce with the server time and what the message must name',
    response: { 200: nonceAnswerSchema, 429: errorBodySchema },
  },
  verify: {
    tags,
    summary: 'Sign in with a signed EIP-4361 message; starts a session (cookie or bearer token)',
    body: verifyBodySchema,
    response: { 200: signInAnswerSchema, ...errors, 503: errorBodySchema },
  },
  session: {
    tags,
    summary: 'The signed-in user and current session, or 401',
    response: { 200: sessionAnswerSchema, 401: errorBodySchema },
  },
  logout: {
    tags,
    summary: 'Sign out: revoke the current session and clear the cookie',
    response: { 204: { type: 'null', description: 'Signed out' }, 403: errorBodySchema },
  },
  sessions: {
    tags,
    summary: "The signed-in user's active sessions",
    response: { 200: sessionsAnswerSchema, 401: errorBodySchema },
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
  link: {
    tags,
    summary:
      'Link another wallet to the signed-in user, with a sign-in message signed by that wallet (nonce used once)',
    body: linkWalletBodySchema,
    response: {
      200: linkedWalletsAnswerSchema,
      ...errors,
      409: errorBodySchema,
      503: errorBodySchema,
    },
  },
  wallets: {
    tags,
    summary: "The signed-in user's wallets: each signs in as them",
    response: { 200: linkedWalletsAnswerSchema, 401: errorBodySchema },
  },
  unlink: {
    tags,
    summary: 'Unlink one of my wallets (a user keeps at least one)',
    params: {
      type: 'object',
      properties: { address: { type: 'string', pattern: '^0x[0-9a-fA-F]{40}$' } },
      required: ['address'],
    },
    response: {
      200: linkedWalletsAnswerSchema,
      400: errorBodySchema,
      401: errorBodySchema,
      403: errorBodySchema,
      404: errorBodySchema,
      409: errorBodySchema,
    },
  },
} as const
