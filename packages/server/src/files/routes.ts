import { badRequest, errorBodySchema, HttpError, notFound } from '../errors.ts'

import type { Readable } from 'node:stream'
import { ALLOWED_TYPES, FILE_NAME, mediaType, STORED_FILE_NAME } from '../files/store.ts'
import { routePlugin } from '../http/route-plugin.ts'
import type { ServerConfig } from '../config/server.ts'
import type { FileStore } from './store.ts'

/** The services these routes use. */
export type FileRouteNeeds = { config: ServerConfig; files: FileStore }

// `POST /api/files/:name` (the raw bytes as the body), `GET` and `DELETE /api/files/:name`;
// what may be stored, where, and how it is served is files/store.ts (`services.files`).

export const fileRoutes = routePlugin(
  'portico-files',
  ['portico-current-user'],
  async function fileRoutes(app, services: FileRouteNeeds) {
    const maxBytes = services.config.fileMaxBytes
    // This plugin is encapsulated: the raw parsers below apply to the file routes only.
    app.removeAllContentTypeParsers()
    // The body stays a stream: the file store reads it as it arrives (and counts it against the limit).
    app.addContentTypeParser([...ALLOWED_TYPES], (_request, payload, done) => done(null, payload))
    app.addContentTypeParser('*', (request, _payload, done) => {
      done(
        new HttpError(
          415,
          'unsupported_file_type',
          `Files of type "${mediaType(request.headers['content-type']).slice(0, 100)}" are not accepted. Allowed: ${ALLOWED_TYPES.join(', ')}.`,
        ),
      )
    })

    app.post<{ Params: { name: string }; Body: Readable }>(
      '/api/files/:name',
      {
        bodyLimit: maxBytes,
        config: { idempotent: 'claim' },
        schema: {
          tags: ['files'],
          summary: `Upload a file (raw body, at most ${maxBytes} bytes, allow-listed types)`,
          params: {
            type: 'object',
            properties: { name: { type: 'string', pattern: FILE_NAME } },
            required: ['name'],
          },
          response: {
            201: {
              type: 'object',
              properties: { name: { type: 'string' }, url: { type: 'string' } },
              required: ['name', 'url'],
            },
            400: errorBodySchema,
            401: errorBodySchema,
            413: errorBodySchema,
            415: errorBodySchema,
            503: errorBodySchema,
          },
        },
      },
      async (request, reply) => {
        const { user } = await request.requireUser()
        // A declared length says early what the stream would find out late.
        const length = Number(request.headers['content-length'] ?? NaN)
        if (length > maxBytes)
          throw new HttpError(
            413,
            'body_too_large',
            `Files are at most ${maxBytes} bytes (FILE_MAX_BYTES).`,
          )
        if (length === 0 || request.body === undefined)
          throw badRequest('The file is empty.', 'empty_file')
        const name = await services.files
          .save({
            ownerId: user.id,
            name: request.params.name,
            contentType: mediaType(request.headers['content-type']),
            body: request.body,
          })
          .catch((error: unknown) => {
            // Refused before the whole body arrived (too large, store down): the rest is read and
            // dropped, so the client, still sending, gets to read this answer (closing now would
            // reset the connection under it) and the connection stays usable. The request time-out
            // bounds how long that can take.
            if (!request.raw.complete) request.raw.resume()
            throw error
          })
        return reply.status(201).send({ name, url: `/api/files/${encodeURIComponent(name)}` })
      },
    )

    app.get<{ Params: { name: string } }>(
      '/api/files/:name',
      {
        // Sent as stored, with their exact length: no compressing on the fly of bytes that are
        // mostly compressed already (images, archives), streamed from the store.
        compress: false,
        schema: {
          tags: ['files'],
          summary: 'Download a file (served inert: nosniff, sandboxed, attachment unless an image)',
          params: {
            type: 'object',
            properties: { name: { type: 'string', pattern: STORED_FILE_NAME } },
            required: ['name'],
          },
          response: { 404: errorBodySchema, 503: errorBodySchema },
        },
      },
      async (request, reply) => {
        if (!(await services.files.send(request.params.name, reply)))
          throw notFound('No such file.')
        return reply
      },
    )

    app.delete<{ Params: { name: string } }>(
      '/api/files/:name',
      {
        config: { idempotent: 'claim' },
        schema: {
          tags: ['files'],
          summary: 'Delete one of your files (its bytes too, wherever they are kept)',
          params: {
            type: 'object',
            properties: { name: { type: 'string', pattern: STORED_FILE_NAME } },
            required: ['name'],
          },
          response: {
            204: { type: 'null' },
            401: errorBodySchema,
            404: errorBodySchema,
            503: errorBodySchema,
          },
        },
      },
      async (request, reply) => {
        const { user } = await request.requireUser()
        // Someone else's file answers like a missing one: names are not confirmed to strangers.
        if ((await services.files.remove(request.params.name, user.id)) === 'missing')
          throw notFound('No such file of yours.')
        return reply.status(204).send()
      },
    )
  },
)
