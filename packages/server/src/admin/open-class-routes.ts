import { consoleRoutes as c } from '@portico/sdk/wire'
import type { FastifyInstance } from 'fastify'
import type { JsonSchemaToTsProvider } from '@fastify/type-provider-json-schema-to-ts'
import { errorBodySchema } from '../errors.ts'
import { ANY_OWNER } from '../objects/access.ts'
import { SCHEMA_CLASS } from '../objects/class-permissions.ts'
import { assertStoredClassName } from '../objects/names.ts'
import type { Document } from '../objects/wire.ts'
import { MASTER_OWNER, type MasterOwner } from '../compat/master-key.ts'
import { closedPermissions, openClasses, type OpenClassReads } from '../compat/open-classes.ts'
import type { Sync } from '../sync/definition.ts'
import type { ConsoleNeeds } from './needs.ts'
import { consoleAccess } from '../auth/team.ts'
import { consoleErrors, tags } from './schemas.ts'

// The classes anyone signed out may write (compat/open-classes.ts), as the console badges them,
// and the one step that closes one to signed-in users: it writes the class's permissions (its
// `_SCHEMA` object, as the schema routes do), recorded in the audit log with what they were.

const errors = { 400: errorBodySchema, 404: errorBodySchema, ...consoleErrors } as const

/** The services these routes use. */
export type ConsoleOpenClassNeeds = ConsoleNeeds & {
  syncs: readonly Sync[]
  masterOwner: MasterOwner
  openClassReads: OpenClassReads
}

/** The open-class routes, inside the console's data plugin (whose access hook guards them). */
export async function consoleOpenClassRoutes(
  fastify: FastifyInstance,
  services: ConsoleOpenClassNeeds,
) {
  const app = fastify.withTypeProvider<JsonSchemaToTsProvider>()
  const requireConsole = consoleAccess(services.config.app)

  app.get(
    '/api/admin/open-classes',
    {
      schema: {
        tags,
        summary: 'The classes anyone signed out may create in or write',
        response: { 200: c['GET /api/admin/open-classes'].answer, ...errors },
      },
    },
    async (request) => {
      await requireConsole(request, 'read')
      return { classes: await openClasses(services) }
    },
  )

  app.post(
    '/api/admin/classes/:className/close',
    {
      schema: {
        tags,
        summary:
          'Close a class to signed-in users: its permissions then ask a sign-in for every write (reads stay as they were)',
        params: c['POST /api/admin/classes/:className/close'].params,
        response: { 200: c['POST /api/admin/classes/:className/close'].answer, ...errors },
      },
    },
    async (request) => {
      const { user } = await requireConsole(request, 'write')
      const name = assertStoredClassName(request.params.className)
      await services.masterOwner.ensure()
      const now = new Date()
      await services.objects.insertAbsent([
        {
          className: SCHEMA_CLASS,
          id: name,
          ownerId: MASTER_OWNER.id,
          acl: {},
          data: { fields: {} },
          createdAt: now,
          updatedAt: now,
        },
      ])
      let before: Document | undefined
      let after: Document = {}
      await services.objects.modify(
        { className: SCHEMA_CLASS, objectId: name, userId: ANY_OWNER },
        (current) => {
          const stored = current.data.classLevelPermissions
          before =
            stored && typeof stored === 'object' && !Array.isArray(stored)
              ? (stored as Document)
              : undefined
          after = closedPermissions(before)
          return { data: { ...current.data, classLevelPermissions: after } }
        },
      )
      await services.audit.record({
        actor: user.address,
        action: 'class.close',
        target: name,
        before: before ?? null,
        after,
      })
      return { classLevelPermissions: after }
    },
  )
}
