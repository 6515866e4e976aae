import { PassThrough } from 'node:stream'
import { desc, eq } from 'drizzle-orm'
import type { FastifyInstance } from 'fastify'
import { objectSchema, queryAnswerSchema } from '@portico/sdk/wire'
import { files, users } from '../db/schema.ts'
import { badRequest, errorBodySchema, notFound } from '../errors.ts'
import { answerBudget } from '../http/answer-budget.ts'
import { assertStoredClassName } from '../objects/names.ts'
import {
  parseWhere,
  translateOrder,
  translatePage,
  translateWhere,
  walksCreationIndex,
} from '../objects/query.ts'
import { ANY_OWNER, deleteObject, modifyObject, queryObjects } from '../objects/store.ts'
import { normaliseDocument } from '../objects/wire.ts'
import { exportRows, ImportFileError } from '../import/export-file.ts'
import { importClass } from '../import/parse-import.ts'
import { requireConsole } from './access.ts'
import { recordAudit } from './audit.ts'
import { exportCsv, exportJson } from './export.ts'

// The console's routes over data: objects through the same query language as the SDK (as the
// console, which reads every object), record edits and deletes recorded in the audit log,
// streamed exports, files, and imports of Parse/Moralis class exports.

const tags = ['admin']
const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
} as const
const digits = { type: 'string', pattern: '^[0-9]{1,9}$' } as const
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
    count: { type: 'string', enum: ['0', '1', 'true', 'false'] },
  },
  additionalProperties: false,
} as const
/** Largest export file accepted by the console's import (the command line has no limit). */
const IMPORT_MAX_BYTES = 50 * 1024 * 1024

export async function consoleDataRoutes(app: FastifyInstance): Promise<void> {
  const db = app.db

  app.get<{
    Params: { className: string }
    Querystring: { where?: string; order?: string; limit?: string; skip?: string; count?: string }
  }>(
    '/api/admin/classes/:className',
    {
      schema: {
        tags,
        summary:
          'Every object of a class (the console reads all), filtered and sorted as the SDK queries',
        params: classParams,
        querystring: queryString,
        response: { 200: queryAnswerSchema, ...errors },
      },
    },
    async (request) => {
      await requireConsole(request, 'read')
      const { where, order, limit, skip, count } = request.query
      return queryObjects(db, {
        className: assertStoredClassName(request.params.className),
        viewerId: ANY_OWNER,
        where: translateWhere(where),
        orderBy: translateOrder(order),
        walkCreationIndex: walksCreationIndex(parseWhere(where), order),
        ...translatePage(limit, skip),
        count: count === '1' || count === 'true',
        maxBytes: answerBudget(app.config.answerMaxBytes),
      })
    },
  )

  app.put<{
    Params: { className: string; objectId: string }
    Body: { data: Record<string, unknown>; publicRead?: boolean; owner?: string }
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
            owner: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,80}$' },
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
      const { owner, publicRead } = request.body
      if (owner !== undefined) {
        const [exists] = await db.select({ id: users.id }).from(users).where(eq(users.id, owner))
        if (!exists) throw badRequest(`No user has the id "${owner}".`, 'invalid_value')
      }
      const { before, after } = await modifyObject(
        db,
        { className, objectId: request.params.objectId, userId: ANY_OWNER },
        () => ({ data, publicRead, ownerId: owner }),
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
      const before = await deleteObject(db, {
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
      const where = translateWhere(request.query.where)
      const csv = request.query.format === 'csv'
      return reply
        .type(csv ? 'text/csv; charset=utf-8' : 'application/json; charset=utf-8')
        .header(
          'content-disposition',
          `attachment; filename="${className}.${csv ? 'csv' : 'json'}"`,
        )
        .send(csv ? await exportCsv(db, className, where) : exportJson(db, className, where))
    },
  )

  app.get<{ Querystring: { limit?: string; skip?: string } }>(
    '/api/admin/files',
    {
      schema: {
        tags,
        summary: 'Files with owner, type, size and where they are kept, newest first',
        querystring: {
          type: 'object',
          properties: { limit: digits, skip: digits },
          additionalProperties: false,
        },
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
        .limit(Math.min(200, Number(request.query.limit ?? 50)))
        .offset(Number(request.query.skip ?? 0))
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
              pattern: '^[A-Za-z0-9_-]{16}_[A-Za-z0-9][A-Za-z0-9._-]{0,127}$',
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
      if (!file || (await app.files.remove(request.params.name, file.ownerId)) === 'missing')
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

  // The export file as the body; the answer is a stream of progress lines (NDJSON), the last one
  // the report, so the console can show progress on a large file.
  await app.register(async (upload) => {
    upload.removeAllContentTypeParsers()
    upload.addContentTypeParser(
      'application/json',
      { parseAs: 'string', bodyLimit: IMPORT_MAX_BYTES },
      (_request, body, done) => done(null, body),
    )
    upload.post<{ Params: { className: string }; Body: string }>(
      '/api/admin/import/:className',
      {
        bodyLimit: IMPORT_MAX_BYTES,
        // Progress lines must leave as they are written, not wait in a compressor.
        compress: false,
        schema: {
          tags,
          summary:
            'Import one class of a Parse or Moralis export ({"results":[…]}); answers progress lines, then the report',
          params: classParams,
          response: { ...errors, 413: errorBodySchema },
        },
      },
      async (request, reply) => {
        const { user } = await requireConsole(request, 'write')
        const className = assertStoredClassName(request.params.className)
        let rows
        try {
          rows = exportRows(String(request.body ?? ''))
        } catch (error) {
          if (error instanceof ImportFileError) throw badRequest(error.message, 'invalid_import')
          throw error
        }
        const out = new PassThrough()
        void reply.type('application/x-ndjson; charset=utf-8').send(out)
        const line = (value: unknown) => out.write(`${JSON.stringify(value)}\n`)
        void (async () => {
          try {
            const report = await importClass(db, {
              className,
              rows,
              onProgress: (progress) => line({ progress }),
            })
            await recordAudit(db, {
              actor: user.address,
              action: 'import',
              target: `class/${className}`,
              after: {
                rows: report.rows,
                imported: report.imported,
                unchanged: report.unchanged,
                refused: report.refused.length,
              },
            })
            line({ report })
          } catch (error) {
            request.log.error({ err: error }, 'import failed')
            line({
              error:
                'The import stopped on a server error; what was imported stays, and running it again goes on.',
            })
          } finally {
            out.end()
          }
        })()
        return reply
      },
    )
  })
}
