import { consoleRoutes as c } from '@portico/sdk/wire'
import type { JsonSchemaToTsProvider } from '@fastify/type-provider-json-schema-to-ts'
import { parseAcl, withPublicRead } from '../objects/acl.ts'
import { badRequest, errorBodySchema, notFound } from '../errors.ts'
import { ANY_OWNER } from '../objects/access.ts'
import { assertStoredClassName } from '../objects/names.ts'
import { parseWhereText } from '../objects/condition.ts'
import { translatePage } from '../objects/query.ts'
import { normaliseDocument } from '../objects/wire.ts'
import { consoleAccess } from '../auth/team.ts'
import { guardConsoleRoutes } from './guard.ts'
import { consoleFieldRoutes } from './field-routes.ts'
import { consoleIndexRoutes } from './index-routes.ts'
import { consoleOpenClassRoutes, type ConsoleOpenClassNeeds } from './open-class-routes.ts'
import type { DeleteUserSources } from '../auth/delete-user.ts'
import { consoleUserDeleteRoute } from './user-delete-route.ts'
import { aclUserIds, type AclUsers } from './acl-users.ts'
import { consoleErrors, paging, tags, withIsoDates } from './schemas.ts'
import { exportCsv, exportJson } from './export.ts'
import type { ReferenceCheck } from './references.ts'
import { pageEnd, parsePageEnd, whereAfter } from './keyset.ts'
import { routePlugin } from '../http/route-plugin.ts'
import { ROLE_CLASS, roleWriteProblem } from '../roles/rules.ts'
import type { FileStore } from '../files/store.ts'
import type { FileRecords } from '../files/records.ts'
import type { ConsoleNeeds } from './needs.ts'
import type { ConsoleFieldNeeds } from './field-routes.ts'
import type { ConsoleIndexNeeds } from './index-routes.ts'

/** The services these routes use. */
export type ConsoleDataNeeds = ConsoleNeeds &
  ConsoleFieldNeeds &
  ConsoleIndexNeeds &
  ConsoleOpenClassNeeds &
  DeleteUserSources & {
    files: FileStore
    fileRecords: FileRecords
    aclUsers: AclUsers
    references: ReferenceCheck
  }

// The console's routes over data: objects through the same query language as the SDK (as the
// console, which reads every object), record edits and deletes recorded in the audit log,
// streamed exports and files. Imports are in import-route.ts.

const errors = { 400: errorBodySchema, 404: errorBodySchema, ...consoleErrors } as const

export const consoleDataRoutes = routePlugin(
  'portico-console-data',
  ['portico-current-user'],
  async function consoleDataRoutes(fastify, services: ConsoleDataNeeds) {
    const app = fastify.withTypeProvider<JsonSchemaToTsProvider>()
    const requireConsole = consoleAccess(services.config.app)
    guardConsoleRoutes(app, services.config.app)
    await consoleFieldRoutes(fastify, services)
    await consoleIndexRoutes(fastify, services)
    await consoleOpenClassRoutes(fastify, services)
    await consoleUserDeleteRoute(fastify, services)
    const objects = services.objects

    app.get(
      '/api/admin/classes/:className',
      {
        schema: {
          tags,
          summary:
            'Every object of a class (the console reads all), filtered and sorted as the SDK queries',
          params: c['GET /api/admin/classes/:className'].params,
          querystring: c['GET /api/admin/classes/:className'].querystring,
          response: { 200: c['GET /api/admin/classes/:className'].answer, ...errors },
        },
      },
      async (request) => {
        await requireConsole(request, 'read')
        const { order, limit, skip, after, count } = request.query
        const className = assertStoredClassName(request.params.className)
        if (after !== undefined && skip !== undefined && Number(skip) > 0)
          throw badRequest(
            'A page is read "after" another or with "skip", not both.',
            'invalid_query',
          )
        let where = request.query.where
        if (after !== undefined) {
          const sent = parseWhereText(where) && (JSON.parse(where!) as Record<string, unknown>)
          where = JSON.stringify(whereAfter(sent, order, parsePageEnd(after)))
        }
        const page = translatePage(limit, skip)
        const countLimit =
          request.query.countLimit === undefined ? undefined : Number(request.query.countLimit)
        const found = await objects.query(ANY_OWNER, className, {
          where: parseWhereText(where),
          whereText: where,
          order,
          ...page,
          count: count === '1' || count === 'true',
          countLimit,
        })
        // The console shows owners by their wallet address, which is how a team knows its users.
        const ids = found.results.flatMap((object) => [object.owner, ...aclUserIds(object.acl)])
        const next = pageEnd(found.results, page.limit, order)
        // A user without a wallet is shown with an empty address.
        const owners = Object.fromEntries(
          [...(await services.aclUsers.addressesOf(ids))].map(([id, address]) => [
            id,
            address ?? '',
          ]),
        )
        const more = next ? { next } : {}
        if (countLimit === undefined || found.count === undefined || found.count <= countLimit)
          return { ...found, owners, ...more }
        return { ...found, count: countLimit, countCapped: true, owners, ...more }
      },
    )

    app.put(
      '/api/admin/classes/:className/:objectId',
      {
        schema: {
          tags,
          summary: "Replace an object's document, and/or set its owner and public read",
          params: c['PUT /api/admin/classes/:className/:objectId'].params,
          body: c['PUT /api/admin/classes/:className/:objectId'].body,
          response: { 200: c['PUT /api/admin/classes/:className/:objectId'].answer, ...errors },
        },
      },
      async (request) => {
        const { user } = await requireConsole(request, 'write')
        const className = assertStoredClassName(request.params.className)
        const data = normaliseDocument(request.body.data)
        const { owner, publicRead, acl } = request.body
        // ACL entries may name users by wallet address, as the console shows them.
        const newAcl =
          acl === undefined ? undefined : await services.aclUsers.aclByUserId(parseAcl(acl))
        let ownerId: string | undefined
        if (owner !== undefined) {
          const byAddress = /^0x[0-9a-fA-F]{40}$/.test(owner)
          const found = await services.aclUsers.userIdOf(owner)
          if (!found) {
            throw badRequest(
              byAddress
                ? `No user has signed in with ${owner}: a wallet must sign in once before it can own objects.`
                : `No user has the id "${owner}".`,
              'invalid_value',
            )
          }
          ownerId = found
        }
        await services.references.check({ data, acl: newAcl }, () =>
          objects.get(className, request.params.objectId, ANY_OWNER),
        )
        // Audited by the store, in the change's own transaction.
        const { after } = await objects.modify(
          {
            className,
            objectId: request.params.objectId,
            userId: ANY_OWNER,
            auditActor: user.address,
          },
          (current) => {
            // A role keeps its name: ACLs name it by it.
            const problem =
              className === ROLE_CLASS ? roleWriteProblem(current.data, data, []) : undefined
            if (problem) throw badRequest(problem, 'invalid_value')
            let next = newAcl ?? current.acl
            // A new owner takes the old owner's place in the ACL.
            if (ownerId !== undefined && newAcl === undefined && current.acl[current.owner]) {
              const { [current.owner]: rights, ...rest } = next
              next = { ...rest, [ownerId]: rights! }
            }
            if (publicRead !== undefined) next = withPublicRead(next, publicRead)
            return { data, acl: next, ...(ownerId === undefined ? {} : { ownerId }) }
          },
        )
        return after
      },
    )

    app.delete(
      '/api/admin/classes/:className/:objectId',
      {
        schema: {
          tags,
          summary: 'Delete an object (needs a sign-in from the last 15 minutes)',
          params: c['DELETE /api/admin/classes/:className/:objectId'].params,
          response: { 204: c['DELETE /api/admin/classes/:className/:objectId'].answer, ...errors },
        },
      },
      async (request, reply) => {
        const { user } = await requireConsole(request, 'destructive')
        const className = assertStoredClassName(request.params.className)
        await objects.delete({
          className,
          objectId: request.params.objectId,
          userId: ANY_OWNER,
          auditActor: user.address,
        })
        return reply.status(204).send(null)
      },
    )

    app.get(
      '/api/admin/classes/:className/export',
      {
        schema: {
          tags,
          summary: 'Export a class, or the objects a filter selects, as JSON or CSV (streamed)',
          params: c['GET /api/admin/classes/:className/export'].params,
          querystring: c['GET /api/admin/classes/:className/export'].querystring,
          response: { 200: c['GET /api/admin/classes/:className/export'].answer, ...errors },
        },
      },
      async (request, reply) => {
        await requireConsole(request, 'read')
        const className = assertStoredClassName(request.params.className)
        const scan = objects.scan(ANY_OWNER, className, parseWhereText(request.query.where))
        const csv = request.query.format === 'csv'
        return reply
          .type(csv ? 'text/csv; charset=utf-8' : 'application/json; charset=utf-8')
          .header(
            'content-disposition',
            `attachment; filename="${className}.${csv ? 'csv' : 'json'}"`,
          )
          .send(csv ? await exportCsv(scan) : exportJson(scan))
      },
    )

    app.get(
      '/api/admin/files',
      {
        schema: {
          tags,
          summary: 'Files with owner, type, size and where they are kept, newest first',
          querystring: c['GET /api/admin/files'].querystring,
          response: { 200: c['GET /api/admin/files'].answer, ...errors },
        },
      },
      async (request) => {
        await requireConsole(request, 'read')
        const rows = await services.fileRecords.list({
          limit: paging(request.query).limit,
          offset: paging(request.query).offset,
        })
        return { results: rows.map(withIsoDates) }
      },
    )

    app.delete(
      '/api/admin/files/:name',
      {
        schema: {
          tags,
          summary: 'Delete a file and its bytes (needs a sign-in from the last 15 minutes)',
          params: c['DELETE /api/admin/files/:name'].params,
          response: {
            204: c['DELETE /api/admin/files/:name'].answer,
            ...errors,
            503: errorBodySchema,
          },
        },
      },
      async (request, reply) => {
        const { user } = await requireConsole(request, 'destructive')
        const file = await services.fileRecords.find(request.params.name)
        const removed =
          file && (await services.files.remove(request.params.name, file.ownerId, user.address))
        if (!removed || removed === 'missing') throw notFound('No such file.')
        return reply.status(204).send(null)
      },
    )
  },
)
