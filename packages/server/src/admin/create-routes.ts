import { consoleRoutes as c } from '@portico/sdk/wire'
import type { JsonSchemaToTsProvider } from '@fastify/type-provider-json-schema-to-ts'
import { HttpError, badRequest, errorBodySchema } from '../errors.ts'
import { routePlugin } from '../http/route-plugin.ts'
import type { IdempotencyRecords } from '../idempotency/store.ts'
import { ANY_OWNER } from '../objects/access.ts'
import { parseAcl, withPublicRead, type Acl } from '../objects/acl.ts'
import { SCHEMA_CLASS } from '../objects/class-permissions.ts'
import {
  assertClassName,
  assertFieldName,
  assertStoredClassName,
  isPointerClass,
} from '../objects/names.ts'
import { normaliseDocument } from '../objects/wire.ts'
import { ROLE_CLASS, roleWriteProblem } from '../roles/rules.ts'
import { consoleAccess } from '../auth/team.ts'
import { guardConsoleRoutes } from './guard.ts'
import type { AclUsers } from './acl-users.ts'
import { classDefaults } from './class-defaults.ts'
import type { DeclaredField } from './declared-fields.ts'
import type { ReferenceCheck } from './references.ts'
import { consoleErrors, tags } from './schemas.ts'
import type { ConsoleFieldNeeds } from './field-routes.ts'

/** The services these routes use. */
export type ConsoleCreateNeeds = ConsoleFieldNeeds & {
  aclUsers: AclUsers
  references: ReferenceCheck
  idempotency: IdempotencyRecords
}

// The data browser's creates: a class (declared with its first columns, as the field routes
// declare a column) and an object (through the object store, as the console's edits are).
// A retry of either with the same Idempotency-Key gets the first answer, not a second create.

const errors = { 400: errorBodySchema, 404: errorBodySchema, ...consoleErrors } as const

export const consoleCreateRoutes = routePlugin(
  'portico-console-creates',
  ['portico-current-user', 'portico-idempotency'],
  async function consoleCreateRoutes(fastify, services: ConsoleCreateNeeds) {
    const app = fastify.withTypeProvider<JsonSchemaToTsProvider>()
    const requireConsole = consoleAccess(services.config.app)
    guardConsoleRoutes(app, services.config.app)
    const objects = services.objects

    app.post(
      '/api/admin/classes',
      {
        schema: {
          tags,
          summary: 'Create a class, with its first columns and their types',
          body: c['POST /api/admin/classes'].body,
          response: { 201: c['POST /api/admin/classes'].answer, ...errors, 409: errorBodySchema },
        },
        config: { idempotent: 'claim' },
      },
      async (request, reply) => {
        const { user } = await requireConsole(request, 'write')
        const className = assertClassName(request.body.name)
        const fields: Record<string, DeclaredField> = {}
        for (const [name, field] of Object.entries(request.body.fields ?? {}))
          fields[name] = declaredField(name, field)
        // A class exists once it holds objects, has a schema (Parse's, kept as a `_SCHEMA` object)
        // or is declared here.
        const [held, schema] = await Promise.all([
          objects.query(ANY_OWNER, className, { limit: 1, skip: 0 }),
          objects.readAsServer({ className: SCHEMA_CLASS, objectId: className }),
        ])
        if (
          held.results.length ||
          schema ||
          !(await services.declaredFields.create(className, fields))
        )
          throw classExists(className)
        await services.audit.record({
          actor: user.address,
          action: 'class.create',
          target: className,
          after: { fields },
        })
        return reply.status(201).send({ className, fields })
      },
    )

    app.post(
      '/api/admin/classes/:className',
      {
        schema: {
          tags,
          summary:
            "Create an object, owned by you, with the class's defaults unless an ACL is sent",
          params: c['POST /api/admin/classes/:className'].params,
          body: c['POST /api/admin/classes/:className'].body,
          response: { 201: c['POST /api/admin/classes/:className'].answer, ...errors },
        },
        // The key's record is written in the object's own transaction (objects/writer.ts).
        config: { idempotent: 'within' },
      },
      async (request, reply) => {
        const { user } = await requireConsole(request, 'write')
        const className = assertStoredClassName(request.params.className)
        if (className === '_User' || className === '_EthAddress')
          throw badRequest(
            `${className} rows are made by signing in with a wallet: have the user sign in once.`,
            'invalid_value',
          )
        const data = normaliseDocument(request.body.data)
        const sent = request.body.acl
        const acl =
          sent === undefined
            ? defaultAcl(classDefaults(className, services.syncs).newObject, user.id)
            : await services.aclUsers.aclByUserId(parseAcl(sent))
        const problem = className === ROLE_CLASS ? roleWriteProblem(undefined, data, []) : undefined
        if (problem) throw badRequest(problem, 'invalid_value')
        // A new object held nothing before: every reference it names is checked.
        await services.references.check({ data, acl }, async () => ({ data: {}, acl: {} }))
        const outcome = await objects.create({
          className,
          ownerId: user.id,
          writer: ANY_OWNER,
          data,
          acl,
          idempotency: request.idempotency,
          auditActor: user.address,
        })
        if ('created' in outcome) return reply.status(201).send(outcome.created)
        return services.idempotency.replay(request.idempotency!, reply)
      },
    )
  },
)

/** A first column as the field routes take one: a pointer or relation names its class. */
function declaredField(name: string, field: DeclaredField): DeclaredField {
  assertFieldName(name)
  const { type, targetClass } = field
  const targeted = type === 'pointer' || type === 'relation'
  if (targeted && !isPointerClass(targetClass))
    throw badRequest(
      `The ${type} field "${name}" names the class it points to ("targetClass").`,
      'invalid_value',
    )
  if (!targeted && targetClass !== undefined)
    throw badRequest(
      `"${name}" is a ${type} field: only pointer and relation fields name a "targetClass".`,
      'invalid_value',
    )
  return targeted ? { type, targetClass } : { type }
}

/** The ACL a class's defaults give a new object its creator makes. */
function defaultAcl(newObject: ReturnType<typeof classDefaults>['newObject'], creator: string) {
  const acl: Acl =
    newObject.creator === 'read-write' ? { [creator]: { read: true, write: true } } : {}
  return withPublicRead(acl, newObject.public === 'read')
}

const classExists = (className: string) =>
  new HttpError(
    409,
    'class_exists',
    `A class named ${className} exists already: open it in the class list, or pick another name.`,
  )
