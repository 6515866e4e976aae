import { randomBytes } from 'node:crypto'
import { eq } from 'drizzle-orm'
import type { FastifyReply } from 'fastify'
import type { Database } from '../db/client.ts'
import { files } from '../db/schema.ts'

// Files: uploads of an allow-listed type, stored in the database and served so that nothing
// uploaded can run in the site's origin: `nosniff`, a CSP of `default-src 'none'; sandbox`,
// and `Content-Disposition: attachment` for everything but inert raster images. HTML is
// refused outright; SVG (which can carry script) is only ever a download.

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

/** An original file name as uploads may carry it. */
export const FILE_NAME = '^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$'
/** A stored file's name: a random prefix, `_`, the original name. */
export const STORED_FILE_NAME = '^[A-Za-z0-9_-]{16}_[A-Za-z0-9][A-Za-z0-9._-]{0,127}$'

export function mediaType(header: string | undefined): string {
  return (header ?? '').split(';')[0]!.trim().toLowerCase()
}

export function isAllowedType(type: string): boolean {
  return (ALLOWED_TYPES as readonly string[]).includes(type)
}

/** Stores an upload; returns its stored name (unique, not guessable from the original). */
export async function storeFile(
  db: Database,
  input: { ownerId: string; name: string; contentType: string; bytes: Buffer },
): Promise<string> {
  const name = `${randomBytes(12).toString('base64url')}_${input.name}`
  await db.insert(files).values({
    name,
    ownerId: input.ownerId,
    contentType: input.contentType,
    size: input.bytes.length,
    bytes: input.bytes,
  })
  return name
}

/** Answers with a stored file, inert; false when there is no such file. */
export async function sendStoredFile(
  db: Database,
  name: string,
  reply: FastifyReply,
): Promise<boolean> {
  const [file] = await db.select().from(files).where(eq(files.name, name))
  if (!file) return false
  const original = file.name.slice(17)
  const inline = INERT_IMAGES.has(file.contentType)
  await reply
    .header(
      'content-type',
      file.contentType.startsWith('text/')
        ? `${file.contentType}; charset=utf-8`
        : file.contentType,
    )
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', "default-src 'none'; sandbox")
    .header('content-disposition', `${inline ? 'inline' : 'attachment'}; filename="${original}"`)
    .header('cache-control', 'public, max-age=31536000, immutable')
    .send(file.bytes)
  return true
}
