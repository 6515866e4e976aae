import { consoleRoutes as c } from '@portico/sdk/wire'
import type { FastifyInstance } from 'fastify'
import type { JsonSchemaToTsProvider } from '@fastify/type-provider-json-schema-to-ts'
import { errorBodySchema, notFound } from '../errors.ts'
import type { ConsoleNeeds } from './needs.ts'
import { consoleAccess } from '../auth/team.ts'
import { deleteUser, type DeleteUserSources } from '../auth/delete-user.ts'
import { consoleErrors, tags } from './schemas.ts'

// The console's deletion of a user (a data-protection request): as `user.destroy()` does it
// (delete-user.ts), by an admin with a fresh sign-in, recorded in the audit log.

export async function consoleUserDeleteRoute(
  fastify: FastifyInstance,
  services: ConsoleNeeds & DeleteUserSources,
) {
  const app = fastify.withTypeProvider<JsonSchemaToTsProvider>()
  const requireConsole = consoleAccess(services.config.app)
  app.delete(
    '/api/admin/users/:userId',
    {
      schema: {
        tags,
        summary:
          'Delete a user: their sessions, wallets, password and account objects go; what they own is kept or deleted as USER_DELETE_OBJECTS says',
        params: c['DELETE /api/admin/users/:userId'].params,
        response: {
          204: c['DELETE /api/admin/users/:userId'].answer,
          400: errorBodySchema,
          404: errorBodySchema,
          ...consoleErrors,
        },
      },
    },
    async (request, reply) => {
      const { user } = await requireConsole(request, 'destructive')
      const deleted = await deleteUser(services, request.params.userId, {
        actor: user.address,
        objects: services.config.compat.userDeleteObjects ?? 'keep',
      })
      if (!deleted) throw notFound('No such user.')
      return reply.status(204).send(null)
    },
  )
}
