import { isAllowedType, type FileStore } from '../files/store.ts'
import type { FastifyReply } from 'fastify'
import type { CompatAnswer, CompatCall } from './call.ts'
import { ParseCode, ParseError } from './parse-error.ts'
import { MASTER_OWNER } from './master-key.ts'

// `files/:name`: uploads as the v1 clients send them (`{ base64, fileData, _ContentType }`, or the
// raw bytes from a REST client), stored like every Portico file and served back at a URL that
// works as a plain GET (apps put it in <img src>).

const BY_EXTENSION: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  avif: 'image/avif',
  svg: 'image/svg+xml',
  pdf: 'application/pdf',
  txt: 'text/plain',
  csv: 'text/csv',
  json: 'application/json',
}

/** A client's file name as Portico stores names (letters, digits, `.`, `_`, `-`). */
export function storableName(name: string): string {
  const cleaned = name
    .replace(/[^A-Za-z0-9._-]/g, '_')
    .replace(/^[^A-Za-z0-9]+/, '')
    .slice(0, 128)
  return cleaned || 'file'
}

/**
 * `POST files/:name`: the file in the envelope's `base64`, or the body's bytes. Signed in, or
 * with the master key as in Parse Server (a script's upload: the file is then the signed-in
 * user's if a session came too, else the master key's own user's, and in the audit log).
 */
export async function uploadFile(call: CompatCall, givenName: string): Promise<CompatAnswer> {
  const session = call.master ? await call.session() : await call.requireSession()
  if (call.master && !session) await call.services.masterOwner.ensure()
  const user = session?.user ?? MASTER_OWNER
  const name = storableName(givenName)
  let bytes: Buffer
  let type: unknown
  if (call.bytes) {
    bytes = call.bytes
    type = (call.request.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase()
  } else {
    const { base64 } = call.params
    if (typeof base64 !== 'string')
      throw new ParseError(ParseCode.FILE_SAVE_ERROR, 'Send the file as "base64".')
    // A data URI keeps its type in front of the bytes.
    const dataUri = /^data:([^;,]+);base64,/.exec(base64)
    bytes = Buffer.from(dataUri ? base64.slice(dataUri[0].length) : base64, 'base64')
    type = call.params._ContentType ?? dataUri?.[1]
  }
  const extension = name.split('.').pop()?.toLowerCase() ?? ''
  const contentType =
    typeof type === 'string' && type !== ''
      ? type.toLowerCase()
      : (BY_EXTENSION[extension] ?? 'application/octet-stream')
  if (!isAllowedType(contentType))
    throw new ParseError(
      ParseCode.FILE_SAVE_ERROR,
      `Files of type "${contentType.slice(0, 100)}" are not accepted.`,
    )
  if (bytes.length === 0) throw new ParseError(ParseCode.FILE_SAVE_ERROR, 'The file is empty.')
  const { config, files } = call.services
  if (bytes.length > config.fileMaxBytes)
    throw new ParseError(
      ParseCode.FILE_SAVE_ERROR,
      `Files are at most ${config.fileMaxBytes} bytes.`,
    )
  const stored = await files.save({ ownerId: user.id, name, contentType, body: bytes })
  if (call.master)
    await call.services.audit.record({
      actor: `master key (${call.request.ip})`,
      action: 'file.upload',
      target: `file/${stored}`,
      after: { ownerId: user.id, contentType, size: bytes.length },
    })
  const url = `${config.app.publicOrigins[0]}${config.compat.mount}/files/${config.app.appId}/${encodeURIComponent(stored)}`
  return { status: 201, body: { name: stored, url } }
}

/**
 * `DELETE files/:name` (`Parse.File#destroy`): with the master key only, as in Parse Server,
 * whoever uploaded it; an unknown file is Parse's 153. Recorded in the console's audit log.
 */
export async function deleteFile(call: CompatCall, name: string): Promise<CompatAnswer> {
  if (!call.master)
    throw new ParseError(
      ParseCode.OPERATION_FORBIDDEN,
      'unauthorized: deleting a file needs the master key.',
    )
  const file = await call.services.fileRecords.find(name)
  const removed =
    file &&
    (await call.services.files.remove(name, file.ownerId, `master key (${call.request.ip})`))
  if (!removed || removed === 'missing')
    throw new ParseError(ParseCode.FILE_DELETE_ERROR, 'Could not delete file.')
  return { body: {} }
}

/** Sends the stored file `name`; false when there is none. */
export async function serveFile(
  files: FileStore,
  name: string,
  reply: FastifyReply,
): Promise<boolean> {
  // Another site may show the picture: the file itself stays inert (files/store.ts).
  reply.header('cross-origin-resource-policy', 'cross-origin')
  return files.send(name, reply)
}
