import { consoleRoutes as c } from '@portico/sdk/wire'
import type { FastifyInstance } from 'fastify'
import type { JsonSchemaToTsProvider } from '@fastify/type-provider-json-schema-to-ts'
import { errorBodySchema, notFound } from '../errors.ts'
import { assertStoredClassName } from '../objects/names.ts'
import type { FieldIndexes } from '../objects/field-indexes.ts'
import type { ConsoleNeeds } from './needs.ts'
import { consoleAccess } from '../auth/team.ts'
import { consoleErrors, tags } from './schemas.ts'

/** The services these routes use. */
export type ConsoleIndexNeeds = ConsoleNeeds & { fieldIndexes: FieldIndexes }

// The indexes the server built for a class's queries (objects/field-indexes.ts), with how often
// each is read, and their removal: an index costs every write to its class, and one the class's
// queries no longer use is worth dropping.

const errors = { 400: errorBodySchema, 404: errorBodySchema, ...consoleErrors } as const

/** The index routes, inside the console's data plugin (whose access hook guards them). */
export async function consoleIndexRoutes(fastify: FastifyInstance, services: ConsoleIndexNeeds) {
  const app = fastify.withTypeProvider<JsonSchemaToTsProvider>()
  const requireConsole = consoleAccess(services.config.app)
  const indexes = services.fieldIndexes

  app.get(
    '/api/admin/classes/:className/indexes',
    {
      schema: {
        tags,
        summary: "The indexes built for a class's queries, with how often each is read",
        params: c['GET /api/admin/classes/:className/indexes'].params,
        response: {
          200: c['GET /api/admin/classes/:className/indexes'].answer,
          ...errors,
        },
      },
    },
    async (request) => {
      await requireConsole(request, 'read')
      return { indexes: await indexes.list(assertStoredClassName(request.params.className)) }
    },
  )

  app.delete(
    '/api/admin/classes/:className/indexes/:field',
    {
      schema: {
        tags,
        summary: "Remove an index built for a class's queries (it is not built again)",
        params: c['DELETE /api/admin/classes/:className/indexes/:field'].params,
        response: {
          204: c['DELETE /api/admin/classes/:className/indexes/:field'].answer,
          ...errors,
        },
      },
    },
    async (request, reply) => {
      const { user } = await requireConsole(request, 'write')
      const name = assertStoredClassName(request.params.className)
      if (!(await indexes.remove(name, request.params.field)))
        throw notFound(`${name} has no index on ${request.params.field}.`)
      await services.audit.record({
        actor: user.address,
        action: 'class.index.remove',
        target: `${name}.${request.params.field}`,
      })
      return reply.status(204).send(null)
    },
  )
}
