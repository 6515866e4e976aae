import type { JsonSchemaToTsProvider } from '@fastify/type-provider-json-schema-to-ts'
import { routePlugin } from '../http/route-plugin.ts'
import { parseAcl } from '../objects/acl.ts'
import { translatePage } from '../objects/query.ts'
import type { Roles } from './service.ts'
import { roleSchemas as s } from './schemas.ts'

/** The services these routes use. */
export type RoleRouteNeeds = { roles: Roles }

// Roles under `/api/roles`, addressed by their name (unique, and what ACLs name them by). The
// role's own ACL decides: who may read it sees it, who may write it changes its members and
// ACL. Someone who cannot read a role gets 404; someone who reads it but may not write it, 403.

export const roleRoutes = routePlugin(
  'portico-roles',
  ['portico-current-user', 'portico-idempotency'],
  async function roleRoutes(fastify, services: RoleRouteNeeds) {
    const app = fastify.withTypeProvider<JsonSchemaToTsProvider>()

    app.get('/api/roles', { schema: s.list }, async (request) => {
      const current = await request.currentUser()
      return services.roles.list(
        current?.user.id,
        translatePage(request.query.limit, request.query.skip),
      )
    })

    app.post(
      '/api/roles',
      { schema: s.create, config: { idempotent: 'claim' } },
      async (request, reply) => {
        const { user } = await request.requireUser()
        const { name, acl, users, roles } = request.body
        const role = await services.roles.create(
          { ownerId: user.id, viewer: user.id },
          { name, acl: acl === undefined ? undefined : parseAcl(acl), users, roles },
        )
        return reply.status(201).send(role)
      },
    )

    app.get('/api/roles/:name', { schema: s.get }, async (request) => {
      const current = await request.currentUser()
      return services.roles.read(current?.user.id, request.params.name)
    })

    app.put(
      '/api/roles/:name',
      { schema: s.update, config: { idempotent: 'claim' } },
      async (request) => {
        const { user } = await request.requireUser()
        const { add, remove, acl } = request.body
        return services.roles.change(user.id, request.params.name, {
          add,
          remove,
          acl: acl === undefined ? undefined : parseAcl(acl),
        })
      },
    )

    app.delete(
      '/api/roles/:name',
      { schema: s.delete, config: { idempotent: 'claim' } },
      async (request, reply) => {
        const { user } = await request.requireUser()
        await services.roles.delete(user.id, request.params.name)
        return reply.status(204).send(null)
      },
    )
  },
)
