import { consoleRoutes as c } from '@portico/sdk/wire'
import type { JsonSchemaToTsProvider } from '@fastify/type-provider-json-schema-to-ts'
import { errorBodySchema } from '../errors.ts'
import { routePlugin } from '../http/route-plugin.ts'
import { ANY_OWNER } from '../objects/access.ts'
import { parseAcl } from '../objects/acl.ts'
import { translatePage } from '../objects/query.ts'
import type { RoleDetail } from '../roles/roles.ts'
import type { Roles } from '../roles/service.ts'
import { consoleAccess } from '../auth/team.ts'
import { guardConsoleRoutes } from './guard.ts'
import type { AclUsers } from './acl-users.ts'
import { consoleErrors, tags } from './schemas.ts'
import type { ConsoleNeeds } from './needs.ts'

/** The services these routes use. */
export type ConsoleRoleNeeds = ConsoleNeeds & { roles: Roles; aclUsers: AclUsers }

// The console's roles: the same operations as `/api/roles` (roles/roles.ts), as the console,
// which reads and changes every role whatever its ACL. Users are shown by their wallet address,
// and may be named by it in a role's ACL.
// Every change is recorded in the audit log with the role's members and ACL before and after.

const errors = { 400: errorBodySchema, 404: errorBodySchema, ...consoleErrors } as const

export const consoleRoleRoutes = routePlugin(
  'portico-console-roles',
  ['portico-current-user'],
  async function consoleRoleRoutes(fastify, services: ConsoleRoleNeeds) {
    const app = fastify.withTypeProvider<JsonSchemaToTsProvider>()
    const requireConsole = consoleAccess(services.config.app)
    guardConsoleRoutes(app, services.config.app)
    const { aclUsers } = services

    /** The role with its users' wallet addresses. */
    const withAddresses = async (role: RoleDetail) => {
      const addressOf = await aclUsers.addressesOf(role.users)
      return {
        ...role,
        users: role.users.map((id) => ({ id, address: addressOf.get(id) ?? null })),
      }
    }
    /** What the audit log keeps of a role: its ACL and members, users by address. */
    const audited = (role: Awaited<ReturnType<typeof withAddresses>>) => ({
      acl: role.acl,
      users: role.users.map((user) => user.address ?? user.id),
      roles: role.roles.map((child) => child.name),
    })

    app.get(
      '/api/admin/roles',
      {
        schema: {
          tags,
          summary: 'Every role, by name, with how many users and roles each holds',
          querystring: c['GET /api/admin/roles'].querystring,
          response: { 200: c['GET /api/admin/roles'].answer, ...errors },
        },
      },
      async (request) => {
        await requireConsole(request, 'read')
        return services.roles.list(
          ANY_OWNER,
          translatePage(request.query.limit, request.query.skip),
        )
      },
    )

    app.get(
      '/api/admin/roles/:name',
      {
        schema: {
          tags,
          summary: "A role's users (by wallet address), child roles and parent roles",
          params: c['GET /api/admin/roles/:name'].params,
          response: { 200: c['GET /api/admin/roles/:name'].answer, ...errors },
        },
      },
      async (request) => {
        await requireConsole(request, 'read')
        return withAddresses(await services.roles.read(ANY_OWNER, request.params.name))
      },
    )

    app.post(
      '/api/admin/roles',
      {
        schema: {
          tags,
          summary: 'Create a role with its first users (wallet addresses or ids) and child roles',
          body: c['POST /api/admin/roles'].body,
          response: { 201: c['POST /api/admin/roles'].answer, ...errors, 409: errorBodySchema },
        },
      },
      async (request, reply) => {
        const { user } = await requireConsole(request, 'write')
        const { name, acl, users: members, roles } = request.body
        const role = await withAddresses(
          await services.roles.create(
            { ownerId: user.id, viewer: ANY_OWNER },
            {
              name,
              acl:
                acl === undefined
                  ? { '*': { read: true } }
                  : await aclUsers.aclByUserId(parseAcl(acl)),
              users: members,
              roles,
            },
          ),
        )
        await services.audit.record({
          actor: user.address,
          action: 'role.create',
          target: `role/${role.name}`,
          after: audited(role),
        })
        return reply.status(201).send(role)
      },
    )

    app.put(
      '/api/admin/roles/:name',
      {
        schema: {
          tags,
          summary: "Add and remove a role's users and child roles, and/or replace its ACL",
          params: c['PUT /api/admin/roles/:name'].params,
          body: c['PUT /api/admin/roles/:name'].body,
          response: { 200: c['GET /api/admin/roles/:name'].answer, ...errors },
        },
      },
      async (request) => {
        const { user } = await requireConsole(request, 'write')
        const { name } = request.params
        const { add, remove, acl } = request.body
        const before = await withAddresses(await services.roles.read(ANY_OWNER, name))
        const after = await withAddresses(
          await services.roles.change(ANY_OWNER, name, {
            add,
            remove,
            acl: acl === undefined ? undefined : await aclUsers.aclByUserId(parseAcl(acl)),
          }),
        )
        await services.audit.record({
          actor: user.address,
          action: 'role.update',
          target: `role/${name}`,
          before: audited(before),
          after: audited(after),
        })
        return after
      },
    )

    app.delete(
      '/api/admin/roles/:name',
      {
        schema: {
          tags,
          summary: 'Delete a role (needs a sign-in from the last 15 minutes)',
          params: c['DELETE /api/admin/roles/:name'].params,
          response: { 204: { type: 'null' }, ...errors },
        },
      },
      async (request, reply) => {
        const { user } = await requireConsole(request, 'destructive')
        const before = await withAddresses(
          await services.roles.delete(ANY_OWNER, request.params.name),
        )
        await services.audit.record({
          actor: user.address,
          action: 'role.delete',
          target: `role/${before.name}`,
          before: audited(before),
        })
        return reply.status(204).send(null)
      },
    )
  },
)
