import type { JsonSchemaToTsProvider } from '@fastify/type-provider-json-schema-to-ts'
import type { IdempotencyRecords } from '../idempotency/store.ts'
import { unreadable } from './access.ts'
import { VISITOR_OWNER } from './object-store.ts'
import { ownerAcl, parseAcl, withPublicRead } from './acl.ts'
import { parseWhereText } from './condition.ts'
import { assertClassName } from './names.ts'
import { translatePage } from './query.ts'
import { normaliseDocument } from './wire.ts'
import { objectSchemas as s } from './schemas.ts'
import { routePlugin } from '../http/route-plugin.ts'
import type { ObjectStore } from './object-store.ts'

/** The services these routes use. */
export type ObjectRouteNeeds = { idempotency: IdempotencyRecords; objects: ObjectStore }

// Objects: JSON documents in named classes, each with an ACL (acl.ts). Created without one, an
// object is its creator's, private unless `publicRead`. Someone who cannot read an object gets
// 404, so its existence is not revealed; someone who reads it but may not write it, 403. Who
// may write without signing in is the store's to decide (store.ts): the routes pass the caller
// as they find them.

export const objectRoutes = routePlugin(
  'portico-objects',
  ['portico-current-user', 'portico-idempotency'],
  async function objectRoutes(fastify, services: ObjectRouteNeeds) {
    const app = fastify.withTypeProvider<JsonSchemaToTsProvider>()
    const objects = services.objects
    app.post(
      '/api/classes/:className',
      // The key's record is written in the object's own group-commit transaction (objects/writer.ts).
      { schema: s.create, config: { idempotent: 'within' } },
      async (request, reply) => {
        const className = assertClassName(request.params.className)
        const user = (await request.currentUser())?.user
        const { acl, publicRead } = request.body
        // Without a sign-in and an ACL, the object is no one's to write (private unless `publicRead`).
        const given = acl !== undefined ? parseAcl(acl) : user ? ownerAcl(user.id, false) : {}
        const outcome = await objects.create({
          className,
          ownerId: user?.id ?? VISITOR_OWNER.id,
          signedOut: !user,
          client: request.ip,
          data: normaliseDocument(request.body.data),
          acl: publicRead === undefined ? given : withPublicRead(given, publicRead),
          idempotency: request.idempotency,
        })
        if ('created' in outcome) return reply.status(201).send(outcome.created)
        return services.idempotency.replay(request.idempotency!, reply)
      },
    )

    app.get('/api/classes/:className', { schema: s.query }, async (request) => {
      const className = assertClassName(request.params.className)
      const { where, order, limit, skip, count } = request.query
      const current = await request.currentUser()
      return objects.query(current?.user.id, className, {
        where: parseWhereText(where),
        whereText: where,
        order,
        ...translatePage(limit, skip),
        count: count === '1' || count === 'true',
      })
    })

    app.get('/api/classes/:className/:objectId', { schema: s.get }, async (request) => {
      const className = assertClassName(request.params.className)
      const current = await request.currentUser()
      const found = await objects.get(className, request.params.objectId, current?.user.id)
      if (!found) throw unreadable()
      return found
    })

    app.put(
      '/api/classes/:className/:objectId',
      { schema: s.update, config: { idempotent: 'claim' } },
      async (request) => {
        const className = assertClassName(request.params.className)
        const current = await request.currentUser()
        const { data, acl, publicRead } = request.body
        return objects.update({
          className,
          objectId: request.params.objectId,
          userId: current?.user.id,
          client: request.ip,
          ...(data === undefined ? {} : { data: normaliseDocument(data) }),
          ...(acl === undefined ? {} : { acl: parseAcl(acl) }),
          ...(publicRead === undefined ? {} : { publicRead }),
        })
      },
    )

    app.delete(
      '/api/classes/:className/:objectId',
      { schema: s.delete, config: { idempotent: 'claim' } },
      async (request, reply) => {
        const className = assertClassName(request.params.className)
        const current = await request.currentUser()
        await objects.delete({
          className,
          objectId: request.params.objectId,
          userId: current?.user.id,
          client: request.ip,
        })
        return reply.status(204).send(null)
      },
    )
  },
)
