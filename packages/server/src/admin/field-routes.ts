import { BULK_DELETE_MAX, consoleRoutes as c } from '@portico/sdk/wire'
import type { FastifyInstance } from 'fastify'
import type { JsonSchemaToTsProvider } from '@fastify/type-provider-json-schema-to-ts'
import { HttpError, badRequest, errorBodySchema, notFound } from '../errors.ts'
import { ANY_OWNER } from '../objects/access.ts'
import { assertFieldName, assertStoredClassName, isPointerClass } from '../objects/names.ts'
import type { Sync } from '../sync/definition.ts'
import type { ConsoleNeeds } from './needs.ts'
import { parseWhere } from '../objects/condition.ts'
import { consoleAccess } from '../auth/team.ts'
import type { DeclaredFields } from './declared-fields.ts'
import { consoleErrors, tags } from './schemas.ts'
import { classDefaults } from './class-defaults.ts'

/** The services these routes use. */
export type ConsoleFieldNeeds = ConsoleNeeds & {
  syncs: readonly Sync[]
  declaredFields: DeclaredFields
}

// A class's columns as the console's data browser declares them (declared-fields.ts), and the
// changes over many objects at once: removing a field from every object, deleting a selection.

const errors = { 400: errorBodySchema, 404: errorBodySchema, ...consoleErrors } as const

/** The field routes, inside the console's data plugin (whose access hook guards them). */
export async function consoleFieldRoutes(fastify: FastifyInstance, services: ConsoleFieldNeeds) {
  const app = fastify.withTypeProvider<JsonSchemaToTsProvider>()
  const requireConsole = consoleAccess(services.config.app)
  const objects = services.objects

  app.get(
    '/api/admin/classes/:className/fields',
    {
      schema: {
        tags,
        summary: "The columns declared for a class in the console (beside its objects' fields)",
        params: c['GET /api/admin/classes/:className/fields'].params,
        response: { 200: c['GET /api/admin/classes/:className/fields'].answer, ...errors },
      },
    },
    async (request) => {
      await requireConsole(request, 'read')
      const className = assertStoredClassName(request.params.className)
      return { fields: await services.declaredFields.of(className) }
    },
  )

  app.get(
    '/api/admin/classes/:className/defaults',
    {
      schema: {
        tags,
        summary: "A class's defaults: who writes its objects and the ACL a new one starts with",
        params: c['GET /api/admin/classes/:className/defaults'].params,
        response: { 200: c['GET /api/admin/classes/:className/defaults'].answer, ...errors },
      },
    },
    async (request) => {
      await requireConsole(request, 'read')
      return classDefaults(assertStoredClassName(request.params.className), services.syncs)
    },
  )

  app.post(
    '/api/admin/classes/:className/fields',
    {
      schema: {
        tags,
        summary: 'Declare a column of a class, with its type (objects get values when edited)',
        params: c['POST /api/admin/classes/:className/fields'].params,
        body: c['POST /api/admin/classes/:className/fields'].body,
        response: { 200: c['POST /api/admin/classes/:className/fields'].answer, ...errors },
      },
    },
    async (request) => {
      const { user } = await requireConsole(request, 'write')
      const className = assertStoredClassName(request.params.className)
      const { name, type, targetClass } = request.body
      assertFieldName(name)
      const targeted = type === 'pointer' || type === 'relation'
      if (targeted && !isPointerClass(targetClass))
        throw badField(`A ${type} field names the class it points to ("targetClass").`)
      if (!targeted && targetClass !== undefined)
        throw badField(`Only pointer and relation fields name a "targetClass".`)
      const fields = await services.declaredFields.of(className)
      fields[name] = targeted ? { type, targetClass: targetClass! } : { type }
      await services.declaredFields.save(className, fields)
      await services.audit.record({
        actor: user.address,
        action: 'class.field.add',
        target: `${className}.${name}`,
        after: fields[name],
      })
      return { fields }
    },
  )

  app.delete(
    '/api/admin/classes/:className/fields/:field',
    {
      schema: {
        tags,
        summary:
          'Remove a field from every object of a class, and its column (needs a sign-in from the last 15 minutes)',
        params: c['DELETE /api/admin/classes/:className/fields/:field'].params,
        response: {
          200: c['DELETE /api/admin/classes/:className/fields/:field'].answer,
          ...errors,
        },
      },
    },
    async (request) => {
      const { user } = await requireConsole(request, 'destructive')
      const className = assertStoredClassName(request.params.className)
      const field = assertFieldName(request.params.field)
      // One object at a time through the store, so each change is checked, locked and told to
      // live listeners like any other edit; the scan reads pages in id order, so memory stays flat.
      let changed = 0
      const scan = objects.scan(ANY_OWNER, className, parseWhere({ [field]: { $exists: true } }))
      for await (const page of scan.pages())
        for (const object of page) {
          await objects.modify(
            { className, objectId: object.objectId, userId: ANY_OWNER },
            (current) => {
              const { [field]: _removed, ...rest } = current.data
              return { data: rest }
            },
          )
          changed++
        }
      const fields = await services.declaredFields.of(className)
      if (!(field in fields) && changed === 0)
        throw notFound(`No object of ${className} has a field "${field}".`)
      delete fields[field]
      await services.declaredFields.save(className, fields)
      await services.audit.record({
        actor: user.address,
        action: 'class.field.remove',
        target: `${className}.${field}`,
        after: { changed },
      })
      return { changed }
    },
  )

  app.post(
    '/api/admin/classes/:className/delete',
    {
      schema: {
        tags,
        summary: `Delete up to ${BULK_DELETE_MAX} objects of a class by id (needs a sign-in from the last 15 minutes)`,
        params: c['POST /api/admin/classes/:className/delete'].params,
        body: c['POST /api/admin/classes/:className/delete'].body,
        response: { 200: c['POST /api/admin/classes/:className/delete'].answer, ...errors },
      },
    },
    async (request) => {
      const { user } = await requireConsole(request, 'destructive')
      const className = assertStoredClassName(request.params.className)
      const deleted: string[] = []
      const missing: string[] = []
      for (const objectId of request.body.ids) {
        try {
          await objects.delete({ className, objectId, userId: ANY_OWNER, auditActor: user.address })
          deleted.push(objectId)
        } catch (error) {
          // Gone already (another admin, another tab): said in the answer, the rest still go.
          if (!(error instanceof HttpError) || error.statusCode !== 404) throw error
          missing.push(objectId)
        }
      }
      return { deleted, missing }
    },
  )
}

const badField = (message: string) => badRequest(message, 'invalid_value')
