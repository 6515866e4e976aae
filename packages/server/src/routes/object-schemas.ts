import { errorBodySchema } from '../errors.ts'

// JSON schemas of the object routes: Fastify validates with them and the OpenAPI document is
// generated from them.

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
const digits = { type: 'string', pattern: '^[0-9]{1,9}$' } as const

/** An object as answered: the envelope, then the document's fields under `data`. */
export const objectSchema = {
  type: 'object',
  properties: {
    objectId: { type: 'string' },
    className: { type: 'string' },
    owner: { type: 'string', description: 'Id of the user who created it' },
    publicRead: { type: 'boolean' },
    createdAt: { type: 'string', format: 'date-time' },
    updatedAt: { type: 'string', format: 'date-time' },
    data: { type: 'object', additionalProperties: true },
  },
  required: ['objectId', 'className', 'owner', 'publicRead', 'createdAt', 'updatedAt', 'data'],
} as const

export const objectSchemas = {
  create: {
    tags,
    summary: 'Create an object (owned by the signed-in user, private unless publicRead)',
    params: classParams,
    body: {
      type: 'object',
      properties: { data: { type: 'object' }, publicRead: { type: 'boolean' } },
      required: ['data'],
      additionalProperties: false,
    },
    response: { 201: objectSchema, ...errors },
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
      200: {
        type: 'object',
        properties: {
          results: { type: 'array', items: objectSchema },
          count: { type: 'integer' },
        },
        required: ['results'],
      },
      ...errors,
    },
  },
  get: {
    tags,
    summary: 'Read one object (own or public)',
    params: objectParams,
    response: { 200: objectSchema, ...errors },
  },
  update: {
    tags,
    summary: 'Change an object: merge top-level fields and/or set publicRead (owner only)',
    params: objectParams,
    body: {
      type: 'object',
      properties: { data: { type: 'object' }, publicRead: { type: 'boolean' } },
      additionalProperties: false,
    },
    response: { 200: objectSchema, ...errors },
  },
  delete: {
    tags,
    summary: 'Delete an object (owner only)',
    params: objectParams,
    response: { 204: { type: 'null' }, ...errors },
  },
}
