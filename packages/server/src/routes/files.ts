import { randomBytes } from 'node:crypto'
import { eq } from 'drizzle-orm'
import type { FastifyInstance } from 'fastify'

import { files } from '../db/schema.ts'
import { badRequest, errorBodySchema, HttpError, notFound } from '../errors.ts'

// Files: raw uploads of an allow-listed type up to `fileMaxBytes`, stored in the
// database and served so that nothing uploaded can run in the site's origin: `nosniff`, a CSP
// of `default-src 'none'; sandbox`, and `Content-Disposition: attachment` for everything but
// inert raster images. HTML is refused outright; SVG (which can carry script) is only ever a
// download.

/** Types that can be uploaded. */
export const ALLOWED_TYPES = [
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'image/avif',
  'image/svg+xml',
  'application/pdf',
  'text/plain',
  'text/csv',
  'application/json',
  'application/octet-stream',
] as const

/** Types a browser only ever renders as a picture: served inline. */
const INERT_IMAGES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif'])

const NAME = '^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$'
const STORED_NAME = '^[A-Za-z0-9_-]{16}_[A-Za-z0-9][A-Za-z0-9._-]{0,127}$'

function mediaType(header: string | undefined): string {
  return (header ?? '').split(';')[0]!.trim().toLowerCase()
}

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
          properties: { name: { type: 'string', pattern: NAME } },
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
      // A unique prefix: names never collide and cannot be guessed from the original name.
      const name = `${randomBytes(12).toString('base64url')}_${request.params.name}`
      await app.db.insert(files).values({
        name,
        ownerId: user.id,
        contentType: mediaType(request.headers['content-type']),
        size: body.length,
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
          properties: { name: { type: 'string', pattern: STORED_NAME } },
          required: ['name'],
        },
        response: { 404: errorBodySchema },
      },
    },
    async (request, reply) => {
      const [file] = await app.db.select().from(files).where(eq(files.name, request.params.name))
      if (!file) throw notFound('No such file.')
      const original = file.name.slice(17)
      const inline = INERT_IMAGES.has(file.contentType)
      return reply
        .header(
          'content-type',
          file.contentType.startsWith('text/')
            ? `${file.contentType}; charset=utf-8`
            : file.contentType,
        )
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "default-src 'none'; sandbox")
        .header(
          'content-disposition',
          `${inline ? 'inline' : 'attachment'}; filename="${original}"`,
        )
        .header('cache-control', 'public, max-age=31536000, immutable')
        .send(file.bytes)
    },
  )
}
