import { isAllowedType } from '../files/store.ts'
import type { FastifyInstance, FastifyReply } from 'fastify'
import type { CompatAnswer, CompatCall } from './call.ts'
import { ParseCode, ParseError } from './parse-error.ts'

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

export async function uploadFile(
  call: CompatCall,
  rawName: string,
  raw?: Buffer,
): Promise<CompatAnswer> {
  const { user } = await call.requireSession()
  const name = storableName(decodeURIComponent(rawName))
  let bytes: Buffer
  let type: unknown
  if (raw) {
    bytes = raw
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
  if (bytes.length > call.app.config.fileMaxBytes)
    throw new ParseError(
      ParseCode.FILE_SAVE_ERROR,
      `Files are at most ${call.app.config.fileMaxBytes} bytes.`,
    )
  const stored = await call.app.files.save({ ownerId: user.id, name, contentType, body: bytes })
  const { app } = call
  const url = `${app.config.app.publicOrigins[0]}${app.config.compat.mount}/files/${app.config.app.appId}/${encodeURIComponent(stored)}`
  return { status: 201, body: { name: stored, url } }
}

export async function serveFile(
  app: FastifyInstance,
  name: string,
  reply: FastifyReply,
): Promise<boolean> {
  // Another site may show the picture: the file itself stays inert (files/store.ts).
  reply.header('cross-origin-resource-policy', 'cross-origin')
  return app.files.send(name, reply)
}
