import type { FastifyInstance } from 'fastify'
import { errorBodySchema, notFound } from '../errors.ts'
import { assertStoredClassName } from '../objects/names.ts'
import type { FieldIndexes } from '../objects/field-indexes.ts'
import type { ConsoleNeeds } from './needs.ts'
import { consoleAccess } from '../auth/team.ts'
import { recordAudit } from './audit.ts'
import { consoleErrors, tags } from './schemas.ts'

/** The services these routes use. */
export type ConsoleIndexNeeds = ConsoleNeeds & { fieldIndexes: FieldIndexes }

// The indexes the server built for a class's queries (objects/field-indexes.ts), with how often
// each is read, and their removal: an index costs every write to its class, and one the class's
// queries no longer use is worth dropping.

const errors = { 400: errorBodySchema, 404: errorBodySchema, ...consoleErrors } as const
const className = { type: 'string', maxLength: 64 } as const
/** A field, or a composite's shape: `kind,tag|-score`, `score::numeric`. */
const field = { type: 'string', pattern: '^[A-Za-z0-9_,|:-]{1,300}$' } as const
const indexSchema = {
  type: 'object',
  properties: {
    field: {
      type: 'string',
      description:
        'The field it is on, or for a composite the equality fields, then `|` and the order field (`-` descending)',
    },
    indexName: { type: 'string' },
    createdAt: { type: 'string', format: 'date-time' },
    scans: {
      type: 'integer',
      description: 'Times the database read it since its statistics were reset (or it started)',
    },
    bytes: { type: 'integer' },
  },
  required: ['field', 'indexName', 'createdAt', 'scans', 'bytes'],
} as const

/** The index routes, inside the console's data plugin (whose access hook guards them). */
export async function consoleIndexRoutes(app: FastifyInstance, services: ConsoleIndexNeeds) {
  const requireConsole = consoleAccess(services.config.app)
  const indexes = services.fieldIndexes

  app.get<{ Params: { className: string } }>(
    '/api/admin/classes/:className/indexes',
    {
      schema: {
        tags,
        summary: "The indexes built for a class's queries, with how often each is read",
        params: { type: 'object', properties: { className }, required: ['className'] },
        response: {
          200: {
            type: 'object',
            properties: { indexes: { type: 'array', items: indexSchema } },
            required: ['indexes'],
          },
          ...errors,
        },
      },
    },
    async (request) => {
      await requireConsole(request, 'read')
      return { indexes: await indexes.list(assertStoredClassName(request.params.className)) }
    },
  )

  app.delete<{ Params: { className: string; field: string } }>(
    '/api/admin/classes/:className/indexes/:field',
    {
      schema: {
        tags,
        summary: "Remove an index built for a class's queries (it is not built again)",
        params: {
          type: 'object',
          properties: { className, field },
          required: ['className', 'field'],
        },
        response: { 204: { type: 'null' }, ...errors },
      },
    },
    async (request, reply) => {
      const { user } = await requireConsole(request, 'write')
      const name = assertStoredClassName(request.params.className)
      if (!(await indexes.remove(name, request.params.field)))
        throw notFound(`${name} has no index on ${request.params.field}.`)
      await recordAudit(services.db, {
        actor: user.address,
        action: 'class.index.remove',
        target: `${name}.${request.params.field}`,
      })
      return reply.status(204).send()
    },
  )
}
