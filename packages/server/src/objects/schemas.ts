import {
  createObjectBodySchema,
  objectSchema,
  queryAnswerSchema,
  updateObjectBodySchema,
} from '@portico/sdk/wire'
import { errorBodySchema } from '../errors.ts'

// JSON schemas of the object routes: Fastify validates with them and the OpenAPI document is
// generated from them. The shapes of bodies and answers are the shared wire contract.

const tags = ['objects']
const className = { type: 'string', maxLength: 64 } as const
const classParams = {
  type: 'object',
  properties: { className },
  required: ['className'],
} as const
const objectParams = {
  type: 'object',
  properties: { className, objectId: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,64}$' } },
  required: ['className', 'objectId'],
} as const
const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
} as const
// A client that is not signed in writing too fast (SIGNED_OUT_WRITE_RATE_LIMIT).
const writeErrors = { ...errors, 429: errorBodySchema } as const
const digits = { type: 'string', pattern: '^[0-9]{1,9}$' } as const

export const objectSchemas = {
  create: {
    tags,
    summary:
      "Create an object (with an ACL, or its creator's and private unless publicRead); signed in, unless the class's permissions let everyone create",
    params: classParams,
    body: createObjectBodySchema,
    response: { 201: objectSchema, ...writeErrors },
  },
  query: {
    tags,
    summary: 'Query the objects of a class that the caller may read',
    params: classParams,
    querystring: {
      type: 'object',
      properties: {
        where: { type: 'string', maxLength: 20_000, description: 'JSON constraints' },
        order: { type: 'string', maxLength: 400, description: 'e.g. -score,name' },
        limit: { ...digits, description: 'at most 1000 (default 100)' },
        skip: digits,
        count: { type: 'string', enum: ['0', '1', 'true', 'false'] },
      },
      additionalProperties: false,
    },
    response: {
      200: queryAnswerSchema,
      ...errors,
    },
  },
  get: {
    tags,
    summary: 'Read one object (if its ACL lets the caller read it)',
    params: objectParams,
    response: { 200: objectSchema, ...errors },
  },
  update: {
    tags,
    summary:
      'Change an object: merge top-level fields, replace its ACL or set publicRead (those its ACL and class permissions let the caller write, signed in or not)',
    params: objectParams,
    body: updateObjectBodySchema,
    response: { 200: objectSchema, ...writeErrors },
  },
  delete: {
    tags,
    summary:
      'Delete an object (those its ACL and class permissions let the caller write, signed in or not)',
    params: objectParams,
    response: { 204: { type: 'null' }, ...writeErrors },
  },
} as const
