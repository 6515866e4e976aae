import type { JsonSchemaToTsProvider } from '@fastify/type-provider-json-schema-to-ts'
import type { FastifyInstance } from 'fastify'
import { answerBudget } from '../http/answer-budget.ts'
import { replay } from '../idempotency/store.ts'
import { assertClassName } from '../objects/names.ts'
import { parseWhereText } from '../objects/condition.ts'
import { translateOrder, translatePage, translateWhere } from '../objects/query.ts'
import { createObjectGrouped } from '../objects/writer.ts'
import { deleteObject, getObject, unreadable, updateObject } from '../objects/store.ts'
import { queryObjects } from '../objects/pages.ts'
import { normaliseDocument } from '../objects/wire.ts'
import { objectSchemas as s } from './schemas.ts'

// Objects: JSON documents in named classes with owner-based access (private by default, or
// public-read). Someone who cannot read an object gets 404, so its existence is not revealed.

export async function objectRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<JsonSchemaToTsProvider>()
  app.post(
    '/api/classes/:className',
    // The key's record is written in the object's own group-commit transaction (objects/writer.ts).
    { schema: s.create, config: { idempotent: 'within' } },
    async (request, reply) => {
      const className = assertClassName(request.params.className)
      const { user } = await request.requireUser()
      const outcome = await createObjectGrouped(app.db, {
        className,
        ownerId: user.id,
        data: normaliseDocument(request.body.data),
        publicRead: request.body.publicRead ?? false,
        idempotency: request.idempotency,
      })
      if ('created' in outcome) return reply.status(201).send(outcome.created)
      return replay(app.db, request.idempotency!, reply)
    },
  )

  app.get('/api/classes/:className', { schema: s.query }, async (request) => {
    const className = assertClassName(request.params.className)
    const { where, order, limit, skip, count } = request.query
    const current = await request.currentUser()
    const condition = parseWhereText(where)
    return queryObjects(app.db, {
      className,
      viewerId: current?.user.id,
      where: translateWhere(condition),
      orderBy: translateOrder(order),
      ...app.fieldIndexes.planQuery(className, condition, order),
      ...translatePage(limit, skip),
      count: count === '1' || count === 'true',
      maxBytes: answerBudget(app.config.answerMaxBytes),
      source: { where, order },
    })
  })

  app.get('/api/classes/:className/:objectId', { schema: s.get }, async (request) => {
    const className = assertClassName(request.params.className)
    const current = await request.currentUser()
    const found = await getObject(app.db, className, request.params.objectId, current?.user.id)
    if (!found) throw unreadable()
    return found
  })

  app.put(
    '/api/classes/:className/:objectId',
    { schema: s.update, config: { idempotent: 'claim' } },
    async (request) => {
      const className = assertClassName(request.params.className)
      const { user } = await request.requireUser()
      const { data, publicRead } = request.body
      return updateObject(app.db, {
        className,
        objectId: request.params.objectId,
        userId: user.id,
        ...(data === undefined ? {} : { data: normaliseDocument(data) }),
        ...(publicRead === undefined ? {} : { publicRead }),
      })
    },
  )

  app.delete(
    '/api/classes/:className/:objectId',
    { schema: s.delete, config: { idempotent: 'claim' } },
    async (request, reply) => {
      const className = assertClassName(request.params.className)
      const { user } = await request.requireUser()
      await deleteObject(app.db, {
        className,
        objectId: request.params.objectId,
        userId: user.id,
      })
      return reply.status(204).send(null)
    },
  )
}
