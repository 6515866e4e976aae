import type { FastifyInstance } from 'fastify'
import { badRequest, errorBodySchema, HttpError, notFound } from '../errors.ts'

import {
  ALLOWED_TYPES,
  FILE_NAME,
  mediaType,
  sendStoredFile,
  STORED_FILE_NAME,
  storeFile,
} from '../files/store.ts'

// `POST /api/files/:name` (the raw bytes as the body) and `GET /api/files/:name`; what may be
// stored and how it is served is files/store.ts.

export async function fileRoutes(app: FastifyInstance): Promise<void> {
  const maxBytes = app.config.fileMaxBytes
  // This plugin is encapsulated: the raw parsers below apply to the file routes only.
  app.removeAllContentTypeParsers()
  app.addContentTypeParser(
    [...ALLOWED_TYPES],
    { parseAs: 'buffer', bodyLimit: maxBytes },
    (_r, body, done) => done(null, body),
  )
  app.addContentTypeParser('*', (request, _payload, done) => {
    done(
      new HttpError(
        415,
        'unsupported_file_type',
        `Files of type "${mediaType(request.headers['content-type']).slice(0, 100)}" are not accepted. Allowed: ${ALLOWED_TYPES.join(', ')}.`,
      ),
    )
  })

  app.post<{ Params: { name: string }; Body: Buffer }>(
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
        },
      },
    },
    async (request, reply) => {
      const { user } = await request.requireUser()
      const body = request.body
      if (!Buffer.isBuffer(body) || body.length === 0)
        throw badRequest('The file is empty.', 'empty_file')
      const name = await storeFile(app.db, {
        ownerId: user.id,
        name: request.params.name,
        contentType: mediaType(request.headers['content-type']),
        bytes: body,
      })
      return reply.status(201).send({ name, url: `/api/files/${encodeURIComponent(name)}` })
    },
  )

  app.get<{ Params: { name: string } }>(
    '/api/files/:name',
    {
      schema: {
        tags: ['files'],
        summary: 'Download a file (served inert: nosniff, sandboxed, attachment unless an image)',
        params: {
          type: 'object',
          properties: { name: { type: 'string', pattern: STORED_FILE_NAME } },
          required: ['name'],
        },
        response: { 404: errorBodySchema },
      },
    },
    async (request, reply) => {
      if (!(await sendStoredFile(app.db, request.params.name, reply)))
        throw notFound('No such file.')
      return reply
    },
  )
}
