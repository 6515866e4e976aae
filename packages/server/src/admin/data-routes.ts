import { parseAcl, withPublicRead } from '../objects/acl.ts'
import { desc, eq, sql } from 'drizzle-orm'
import { aclSchema, objectSchema, queryAnswerSchema } from '@portico/sdk/wire'
import { files, users } from '../db/schema.ts'
import { badRequest, errorBodySchema, notFound } from '../errors.ts'
import { ANY_OWNER } from '../objects/access.ts'
import { assertStoredClassName } from '../objects/names.ts'
import { parseWhereText } from '../objects/condition.ts'
import { translatePage } from '../objects/query.ts'
import { normaliseDocument } from '../objects/wire.ts'
import { consoleAccess } from './access.ts'
import { guardConsoleRoutes } from './guard.ts'
import { consoleFieldRoutes } from './field-routes.ts'
import { consoleIndexRoutes } from './index-routes.ts'
import { consoleOpenClassRoutes } from './open-class-routes.ts'
import { consoleUserDeleteRoute } from './user-delete-route.ts'
import { aclByUserId, aclUserIds, addressesOf } from './acl-users.ts'
import { recordAudit } from './audit.ts'
import { consoleErrors, digits, paging, pagingQuery, tags } from './schemas.ts'
import { STORED_FILE_NAME } from '../files/store.ts'
import { exportCsv, exportJson } from './export.ts'
import { pageEnd, parsePageEnd, whereAfter } from './keyset.ts'
import { routePlugin } from '../http/route-plugin.ts'
import { ROLE_CLASS, roleWriteProblem } from '../roles/rules.ts'

// The console's routes over data: objects through the same query language as the SDK (as the
// console, which reads every object), record edits and deletes recorded in the audit log,
// streamed exports and files. Imports are in import-route.ts.

const errors = { 400: errorBodySchema, 404: errorBodySchema, ...consoleErrors } as const
const className = { type: 'string', maxLength: 64 } as const
const objectId = { type: 'string', pattern: '^[A-Za-z0-9_-]{1,64}$' } as const
const classParams = { type: 'object', properties: { className }, required: ['className'] } as const
const objectParams = {
  type: 'object',
  properties: { className, objectId },
  required: ['className', 'objectId'],
} as const
const queryString = {
  type: 'object',
  properties: {
    where: {
      type: 'string',
      maxLength: 20_000,
      description: 'JSON constraints, as the SDK sends them',
    },
    order: { type: 'string', maxLength: 400 },
    limit: digits,
    skip: digits,
    after: {
      type: 'string',
      maxLength: 400,
      description:
        "The previous page's `next`: the page after it, read from where it ended (orders by createdAt, updatedAt or objectId) instead of skipping",
    },
    count: { type: 'string', enum: ['0', '1', 'true', 'false'] },
    countLimit: {
      ...digits,
      description:
        'Count at most this many (a larger class answers this many, with `countCapped`): a count reads every match',
    },
  },
  additionalProperties: false,
} as const

/** A page of objects as the console reads it: with each owner's wallet address. */
const consoleQueryAnswer = {
  ...queryAnswerSchema,
  properties: {
    ...queryAnswerSchema.properties,
    owners: {
      type: 'object',
      description:
        'The wallet address of each user the page names (its owners and the users its ACLs name), by user id',
      additionalProperties: { type: 'string' },
    },
    next: {
      type: 'string',
      description:
        'Where this full page ended, to send as `after` for the next one (orders by createdAt, updatedAt or objectId)',
    },
    countCapped: {
      type: 'boolean',
      description: 'True when more objects match than `countLimit`, which is then the count',
    },
  },
} as const

export const consoleDataRoutes = routePlugin(
  'portico-console-data',
  ['portico-current-user'],
  async function consoleDataRoutes(app, services) {
    const requireConsole = consoleAccess(services.config.app)
    guardConsoleRoutes(app, services.config.app)
    await consoleFieldRoutes(app, services)
    await consoleIndexRoutes(app, services)
    await consoleOpenClassRoutes(app, services)
    await consoleUserDeleteRoute(app, services)
    const db = services.db
    const objects = services.objects

    app.get<{
      Params: { className: string }
      Querystring: {
        where?: string
        order?: string
        limit?: string
        skip?: string
        after?: string
        count?: string
        countLimit?: string
      }
    }>(
      '/api/admin/classes/:className',
      {
        schema: {
          tags,
          summary:
            'Every object of a class (the console reads all), filtered and sorted as the SDK queries',
          params: classParams,
          querystring: queryString,
          response: { 200: consoleQueryAnswer, ...errors },
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
        const owners = Object.fromEntries(await addressesOf(db, ids))
        const more = next ? { next } : {}
        if (countLimit === undefined || found.count === undefined || found.count <= countLimit)
          return { ...found, owners, ...more }
        return { ...found, count: countLimit, countCapped: true, owners, ...more }
      },
    )

    app.put<{
      Params: { className: string; objectId: string }
      Body: {
        data: Record<string, unknown>
        publicRead?: boolean
        owner?: string
        acl?: Record<string, { read?: boolean; write?: boolean }>
      }
    }>(
      '/api/admin/classes/:className/:objectId',
      {
        schema: {
          tags,
          summary: "Replace an object's document, and/or set its owner and public read",
          params: objectParams,
          body: {
            type: 'object',
            properties: {
              data: { type: 'object' },
              publicRead: { type: 'boolean' },
              acl: aclSchema,
              owner: {
                type: 'string',
                pattern: '^[A-Za-z0-9_-]{1,80}$',
                description: "The new owner's user id, or wallet address (0x…)",
              },
            },
            required: ['data'],
            additionalProperties: false,
          },
          response: { 200: objectSchema, ...errors },
        },
      },
      async (request) => {
        const { user } = await requireConsole(request, 'write')
        const className = assertStoredClassName(request.params.className)
        const data = normaliseDocument(request.body.data)
        const { owner, publicRead, acl } = request.body
        // ACL entries may name users by wallet address, as the console shows them.
        const newAcl = acl === undefined ? undefined : await aclByUserId(db, parseAcl(acl))
        let ownerId: string | undefined
        if (owner !== undefined) {
          const byAddress = /^0x[0-9a-fA-F]{40}$/.test(owner)
          const [found] = await db
            .select({ id: users.id })
            .from(users)
            .where(
              byAddress
                ? sql`lower(${users.address}) = ${owner.toLowerCase()}`
                : eq(users.id, owner),
            )
          if (!found) {
            throw badRequest(
              byAddress
                ? `No user has signed in with ${owner}: a wallet must sign in once before it can own objects.`
                : `No user has the id "${owner}".`,
              'invalid_value',
            )
          }
          ownerId = found.id
        }
        const { before, after } = await objects.modify(
          { className, objectId: request.params.objectId, userId: ANY_OWNER },
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
        await recordAudit(db, {
          actor: user.address,
          action: 'object.update',
          target: `${className}/${after.objectId}`,
          before,
          after,
        })
        return after
      },
    )

    app.delete<{ Params: { className: string; objectId: string } }>(
      '/api/admin/classes/:className/:objectId',
      {
        schema: {
          tags,
          summary: 'Delete an object (needs a sign-in from the last 15 minutes)',
          params: objectParams,
          response: { 204: { type: 'null' }, ...errors },
        },
      },
      async (request, reply) => {
        const { user } = await requireConsole(request, 'destructive')
        const className = assertStoredClassName(request.params.className)
        const before = await objects.delete({
          className,
          objectId: request.params.objectId,
          userId: ANY_OWNER,
        })
        await recordAudit(db, {
          actor: user.address,
          action: 'object.delete',
          target: `${className}/${before.objectId}`,
          before,
        })
        return reply.status(204).send()
      },
    )

    app.get<{ Params: { className: string }; Querystring: { format?: string; where?: string } }>(
      '/api/admin/classes/:className/export',
      {
        schema: {
          tags,
          summary: 'Export a class, or the objects a filter selects, as JSON or CSV (streamed)',
          params: classParams,
          querystring: {
            type: 'object',
            properties: {
              format: { type: 'string', enum: ['json', 'csv'] },
              where: queryString.properties.where,
            },
            additionalProperties: false,
          },
          response: errors,
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

    app.get<{ Querystring: { limit?: string; skip?: string } }>(
      '/api/admin/files',
      {
        schema: {
          tags,
          summary: 'Files with owner, type, size and where they are kept, newest first',
          querystring: pagingQuery,
          response: errors,
        },
      },
      async (request) => {
        await requireConsole(request, 'read')
        const rows = await db
          .select({
            name: files.name,
            owner: users.address,
            ownerId: files.ownerId,
            contentType: files.contentType,
            size: files.size,
            storage: files.storage,
            createdAt: files.createdAt,
          })
          .from(files)
          .innerJoin(users, eq(users.id, files.ownerId))
          .orderBy(desc(files.createdAt), files.name)
          .limit(paging(request.query).limit)
          .offset(paging(request.query).offset)
        return { results: rows }
      },
    )

    app.delete<{ Params: { name: string } }>(
      '/api/admin/files/:name',
      {
        schema: {
          tags,
          summary: 'Delete a file and its bytes (needs a sign-in from the last 15 minutes)',
          params: {
            type: 'object',
            properties: {
              name: {
                type: 'string',
                pattern: STORED_FILE_NAME,
              },
            },
            required: ['name'],
          },
          response: { 204: { type: 'null' }, ...errors, 503: errorBodySchema },
        },
      },
      async (request, reply) => {
        const { user } = await requireConsole(request, 'destructive')
        const [file] = await db
          .select({ ownerId: files.ownerId, contentType: files.contentType, size: files.size })
          .from(files)
          .where(eq(files.name, request.params.name))
        if (!file || (await services.files.remove(request.params.name, file.ownerId)) === 'missing')
          throw notFound('No such file.')
        await recordAudit(db, {
          actor: user.address,
          action: 'file.delete',
          target: `file/${request.params.name}`,
          before: file,
        })
        return reply.status(204).send()
      },
    )
  },
)
