import { PassThrough } from 'node:stream'
import { consoleRoutes as c, type ConsoleImportLine } from '@portico/sdk/wire'
import type { JsonSchemaToTsProvider } from '@fastify/type-provider-json-schema-to-ts'

import { badRequest, errorBodySchema, HttpError } from '../errors.ts'
import { ImportFileError } from '../import/export-file.ts'
import { openFile } from '../import/parse-import.ts'
import { noteOpenClasses } from '../compat/open-classes-note.ts'
import type { OpenClassReads } from '../compat/open-classes.ts'
import { consoleAccess } from '../auth/team.ts'
import { guardConsoleRoutes } from './guard.ts'
import type { Imports } from '../import/imports.ts'
import { consoleErrors, tags } from './schemas.ts'
import { routePlugin } from '../http/route-plugin.ts'
import type { ConsoleNeeds } from './needs.ts'
import type { Sync } from '../sync/definition.ts'

/** The services these routes use. */
export type ConsoleImportNeeds = ConsoleNeeds & {
  syncs: readonly Sync[]
  imports: Imports
  openClassReads: OpenClassReads
}

/** Largest export file accepted by the console's import (the command line has no limit). */
const IMPORT_MAX_BYTES = 50 * 1024 * 1024

/**
 * `POST /api/admin/import/:className`: one file of a Parse or Moralis export, named by the
 * file's name without `.json` (`Post`, `_User`, `_Join:likes:Post`). The same import as the
 * command line's (import/parse-import.ts), one file at a time.
 */
export const consoleImportRoute = routePlugin(
  'portico-console-import',
  ['portico-current-user'],
  async function consoleImportRoute(app, services: ConsoleImportNeeds) {
    const requireConsole = consoleAccess(services.config.app)
    guardConsoleRoutes(app, services.config.app)
    const errors = { 400: errorBodySchema, ...consoleErrors } as const
    // The export file as the body; the answer is a stream of progress lines (NDJSON), the last one
    // the report, so the console can show progress on a large file.
    await app.register(async (upload) => {
      upload.removeAllContentTypeParsers()
      upload.addContentTypeParser(
        'application/json',
        { parseAs: 'string', bodyLimit: IMPORT_MAX_BYTES },
        (_request, body, done) => done(null, body),
      )
      upload.withTypeProvider<JsonSchemaToTsProvider>().post(
        '/api/admin/import/:className',
        {
          bodyLimit: IMPORT_MAX_BYTES,
          // Progress lines must leave as they are written, not wait in a compressor.
          compress: false,
          schema: {
            tags,
            summary:
              'Import one file of a Parse export (a class as Parse Dashboard exports it, [ … ], or the legacy {"results": [ … ]}, or a _Join:<field>:<Class> relation file); answers progress lines, then the report',
            params: c['POST /api/admin/import/:className'].params,
            response: {
              200: c['POST /api/admin/import/:className'].answer,
              ...errors,
              413: errorBodySchema,
            },
          },
        },
        async (request, reply) => {
          const { user } = await requireConsole(request, 'write')
          let file
          try {
            file = openFile(`${request.params.className}.json`, String(request.body ?? ''))
          } catch (error) {
            if (error instanceof ImportFileError)
              throw badRequest(
                `${request.params.className}.json${error.line ? ` line ${error.line}` : ''}: ${error.message}`,
                'invalid_import',
              )
            throw error
          }
          const className = file.className
          const out = new PassThrough()
          void reply.type('application/x-ndjson; charset=utf-8').send(out)
          const line = (value: ConsoleImportLine) => out.write(`${JSON.stringify(value)}\n`)
          void (async () => {
            try {
              const report = await services.imports.run(file, (progress) => line({ progress }))
              await noteOpenClasses(services, report)
              await services.audit.record({
                actor: user.address,
                action: 'import',
                target: file.join ? `class/${className}/${file.join.field}` : `class/${className}`,
                after: {
                  rows: report.rows,
                  imported: report.imported,
                  unchanged: report.unchanged,
                  refused: report.refused.length,
                },
              })
              line({ report })
            } catch (error) {
              // A refusal (a class no import may write) is the admin's to read, not a failure.
              if (error instanceof HttpError) {
                line({ error: error.message, code: error.code })
                return
              }
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
  },
)
