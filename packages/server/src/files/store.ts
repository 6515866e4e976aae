import { randomBytes } from 'node:crypto'
import { Readable, Transform } from 'node:stream'
import { and, eq } from 'drizzle-orm'
import type { FastifyBaseLogger, FastifyReply } from 'fastify'
import { recordAudit } from '../audit/log.ts'
import type { Database } from '../db/client.ts'
import { files } from '../db/schema.ts'
import { badRequest, HttpError } from '../errors.ts'
import type { FilesConfig } from '../config/files.ts'
import { FileStoreUnavailable, openS3Store, type ByteStore } from './s3.ts'

// Files: uploads of an allow-listed type, kept in the database or an S3-compatible store, and
// served so that nothing uploaded can run in the site's origin: `nosniff`, a CSP of
// `default-src 'none'; sandbox`, and `Content-Disposition: attachment` for everything but inert
// raster images. HTML is refused outright; SVG (which can carry script) is only ever a download.
//
// A row never points at bytes that are not there: bytes are stored before their row is written,
// and the row is deleted before its bytes. A failure in between leaves bytes without a row,
// which nobody can reach, never a row without bytes.

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

export interface FileStore {
  /** Stores an upload; returns its stored name (unique, not guessable from the original). */
  save(input: {
    ownerId: string
    name: string
    contentType: string
    body: Buffer | Readable
  }): Promise<string>
  /** Answers with a stored file, inert; false when there is no such file. */
  send(name: string, reply: FastifyReply): Promise<boolean>
  /**
   * Deletes a file of `ownerId`: its row, then its bytes. With `auditActor` (the console, the
   * master key) the delete is in the audit log, written in the row's own transaction.
   */
  remove(name: string, ownerId: string, auditActor?: string): Promise<'deleted' | 'missing'>
  /** Throws `FileStoreUnavailable` when files are kept in a store that does not answer. */
  check(): Promise<void>
  close(): void
}

const unavailable = () =>
  new HttpError(
    503,
    'file_store_unavailable',
    'The file store is not reachable right now, and nothing was changed. Try again in a moment.',
  )

/** Files for this server: new uploads go where `config` says; each file is read from where it is. */
export async function openFileStore(
  db: Database,
  config: FilesConfig,
  maxBytes: number,
  log: FastifyBaseLogger,
): Promise<FileStore> {
  const bucket = config.storage === 's3' ? await openS3Store(config.s3) : undefined
  const storeCall = async <T>(work: (store: ByteStore) => Promise<T>): Promise<T> => {
    if (!bucket)
      throw new HttpError(
        503,
        'file_store_unavailable',
        'This file is kept in an S3-compatible store this server is not configured for (FILES_STORAGE=s3).',
      )
    try {
      return await work(bucket)
    } catch (error) {
      if (error instanceof FileStoreUnavailable) {
        log.error({ err: error }, 'file store unavailable')
        throw unavailable()
      }
      throw error
    }
  }

  return {
    async save({ ownerId, name: original, contentType, body }) {
      const name = `${randomBytes(12).toString('base64url')}_${original}`
      if (!bucket) {
        const bytes = Buffer.isBuffer(body) ? body : await readAll(body, maxBytes)
        if (bytes.length > maxBytes) throw tooLarge(maxBytes)
        if (bytes.length === 0) throw badRequest('The file is empty.', 'empty_file')
        await db
          .insert(files)
          .values({ name, ownerId, contentType, size: bytes.length, storage: 'database', bytes })
        return name
      }
      const counted = countBytes(maxBytes)
      const source = Buffer.isBuffer(body) ? Readable.from([body]) : body
      source.on('error', (error) => counted.destroy(error))
      await storeCall((store) => store.put(name, source.pipe(counted), contentType))
      try {
        if (counted.bytes === 0) throw badRequest('The file is empty.', 'empty_file')
        await db
          .insert(files)
          .values({ name, ownerId, contentType, size: counted.bytes, storage: 's3' })
      } catch (error) {
        // The refusal is what the client must hear; a leftover object is only unreferenced bytes.
        await bucket.remove(name).catch(() => {})
        throw error
      }
      return name
    },

    async send(name, reply) {
      const [file] = await db.select().from(files).where(eq(files.name, name))
      if (!file) return false
      let body: Buffer | Readable
      if (file.storage === 'database') body = file.bytes!
      else {
        const stored = await storeCall((store) => store.get(name))
        if (!stored) {
          log.error({ file: name }, 'a file row points at bytes missing from the store')
          return false
        }
        body = stored.body
        reply.header('content-length', file.size)
      }
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
        .header(
          'content-disposition',
          `${inline ? 'inline' : 'attachment'}; filename="${file.name.slice(17)}"`,
        )
        .header('cache-control', 'public, max-age=31536000, immutable')
        .send(body)
      return true
    },

    async remove(name, ownerId, auditActor) {
      const gone = await db.transaction(async (tx) => {
        const [row] = await tx
          .delete(files)
          .where(and(eq(files.name, name), eq(files.ownerId, ownerId)))
          .returning({ storage: files.storage, contentType: files.contentType, size: files.size })
        if (row && auditActor !== undefined)
          await recordAudit(tx, {
            actor: auditActor,
            action: 'file.delete',
            target: `file/${name}`,
            before: { ownerId, contentType: row.contentType, size: row.size },
          })
        return row
      })
      if (!gone) return 'missing'
      if (gone.storage === 's3' && bucket) {
        // The row is gone, so nothing points at these bytes any more; if the store is down they
        // stay behind unreachable, which is logged rather than refused.
        await bucket
          .remove(name)
          .catch((error: unknown) =>
            log.warn({ err: error, file: name }, 'file bytes left in the store'),
          )
      }
      return 'deleted'
    },

    async check() {
      await bucket?.check()
    },

    close() {
      bucket?.close()
    },
  }
}

const tooLarge = (maxBytes: number) =>
  new HttpError(413, 'body_too_large', `Files are at most ${maxBytes} bytes (FILE_MAX_BYTES).`)

/** Passes bytes through, counting them; fails with 413 once there are more than `maxBytes`. */
function countBytes(maxBytes: number): Transform & { bytes: number } {
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      counter.bytes += chunk.length
      if (counter.bytes > maxBytes) done(tooLarge(maxBytes))
      else done(null, chunk)
    },
  }) as Transform & { bytes: number }
  counter.bytes = 0
  return counter
}

/** The whole body, up to `maxBytes`. Past that it fails, leaving the stream as it is (not destroyed). */
function readAll(body: Readable, maxBytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    const stop = () => {
      body.off('data', onData).off('end', onEnd).off('error', reject)
      body.pause()
    }
    const onData = (chunk: Buffer) => {
      size += chunk.length
      chunks.push(chunk)
      if (size > maxBytes) {
        stop()
        reject(tooLarge(maxBytes))
      }
    }
    const onEnd = () => {
      stop()
      resolve(Buffer.concat(chunks))
    }
    body.on('data', onData).once('end', onEnd).once('error', reject)
  })
}
