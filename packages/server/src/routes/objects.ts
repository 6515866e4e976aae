import type { FastifyInstance } from 'fastify'
import { currentUser, requireUser } from '../auth/sessions.ts'
import { errorBodySchema, forbidden, notFound } from '../http/errors.ts'
import { assertClassName } from '../objects/names.ts'
import { translateOrder, translatePage, translateWhere } from '../objects/query.ts'
import {
  cleanUpNowAndThen,
  hashRequest,
  idempotencyKeyOf,
  replayStored,
  userScope,
} from '../http/idempotency.ts'
import { createObjectGrouped } from '../objects/writer.ts'
import {
  deleteObject,
  getObject,
  queryObjects,
  updateObject,
  type Refusal,
} from '../objects/store.ts'
import { normaliseDocument } from '../objects/wire.ts'

// Objects: JSON documents in named classes with owner-based access (issue 5, design.md 4).

const classParams = {
  type: 'object',
  properties: { className: { type: 'string', maxLength: 64 } },
  required: ['className'],
} as const
const objectParams = {
  type: 'object',
  properties: {
    className: { type: 'string', maxLength: 64 },
    objectId: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,64}$' },
  },
  required: ['className', 'objectId'],
} as const

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

const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
}
const digits = { type: 'string', pattern: '^[0-9]{1,9}$' } as const

function refused(refusal: Refusal): never {
  throw refusal === 'forbidden'
    ? forbidden('Only the owner can change or delete this object.')
    : notFound('No such object, or it is not yours to read.')
}

export async function objectRoutes(app: FastifyInstance): Promise<void> {
  app.post<{
    Params: { className: string }
    Body: { data: unknown; publicRead?: boolean }
  }>(
    '/api/classes/:className',
    {
      schema: {
        tags: ['objects'],
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
    },
    async (request, reply) => {
      const className = assertClassName(request.params.className)
      const { user } = await requireUser(request)
      // Creates handle their Idempotency-Key themselves: the record is written in the same
      // group-commit transaction as the object (objects/writer.ts).
      const key = idempotencyKeyOf(request)
      const claim = key
        ? { scope: userScope(user.id), key, requestHash: hashRequest(request) }
        : undefined
      const outcome = await createObjectGrouped(app.db, {
        className,
        ownerId: user.id,
        data: normaliseDocument(request.body.data),
        publicRead: request.body.publicRead ?? false,
        idempotency: claim,
      })
      if ('created' in outcome) {
        if (claim) cleanUpNowAndThen(app.db, request.log)
        return reply.status(201).send(outcome.created)
      }
      return replayStored(app.db, claim!, reply)
    },
  )

  app.get<{
    Params: { className: string }
    Querystring: { where?: string; order?: string; limit?: string; skip?: string; count?: string }
  }>(
    '/api/classes/:className',
    {
      schema: {
        tags: ['objects'],
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
    },
    async (request) => {
      const className = assertClassName(request.params.className)
      const { where, order, limit, skip, count } = request.query
      const current = await currentUser(request)
      return queryObjects(app.db, {
        className,
        viewerId: current?.user.id,
        where: translateWhere(where),
        orderBy: translateOrder(order),
        ...translatePage(limit, skip),
        count: count === '1' || count === 'true',
      })
    },
  )

  app.get<{ Params: { className: string; objectId: string } }>(
    '/api/classes/:className/:objectId',
    {
      schema: {
        tags: ['objects'],
        summary: 'Read one object (own or public)',
        params: objectParams,
        response: { 200: objectSchema, ...errors },
      },
    },
    async (request) => {
      const className = assertClassName(request.params.className)
      const current = await currentUser(request)
      const found = await getObject(app.db, className, request.params.objectId, current?.user.id)
      return found ?? refused('not_found')
    },
  )

  app.put<{
    Params: { className: string; objectId: string }
    Body: { data?: unknown; publicRead?: boolean }
  }>(
    '/api/classes/:className/:objectId',
    {
      config: { idempotent: true },
      schema: {
        tags: ['objects'],
        summary: 'Change an object: merge top-level fields and/or set publicRead (owner only)',
        params: objectParams,
        body: {
          type: 'object',
          properties: { data: { type: 'object' }, publicRead: { type: 'boolean' } },
          additionalProperties: false,
        },
        response: { 200: objectSchema, ...errors },
      },
    },
    async (request) => {
      const className = assertClassName(request.params.className)
      const { user } = await requireUser(request)
      const { data, publicRead } = request.body
      const result = await updateObject(app.db, {
        className,
        objectId: request.params.objectId,
        userId: user.id,
        ...(data === undefined ? {} : { data: normaliseDocument(data) }),
        ...(publicRead === undefined ? {} : { publicRead }),
      })
      return typeof result === 'string' ? refused(result) : result
    },
  )

  app.delete<{ Params: { className: string; objectId: string } }>(
    '/api/classes/:className/:objectId',
    {
      config: { idempotent: true },
      schema: {
        tags: ['objects'],
        summary: 'Delete an object (owner only)',
        params: objectParams,
        response: { 204: { type: 'null' }, ...errors },
      },
    },
    async (request, reply) => {
      const className = assertClassName(request.params.className)
      const { user } = await requireUser(request)
      const result = await deleteObject(app.db, {
        className,
        objectId: request.params.objectId,
        userId: user.id,
      })
      if (result !== true) refused(result)
      return reply.status(204).send()
    },
  )
}
