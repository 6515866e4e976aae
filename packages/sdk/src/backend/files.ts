import type { BackendError } from '../errors/backend.ts'
import type { BackendClient } from './client.ts'
import { PorticoFile } from './values.ts'

export type SaveFileErrorType = BackendError

/**
 * Uploads an unsaved file (`createFile`) and returns it saved: with the server's unique `name`
 * and an absolute `url`. A file that is already saved is returned as it is.
 * @example const saved = await saveFile(client, createFile('photo.png', blob))
 */
export async function saveFile(client: BackendClient, file: PorticoFile): Promise<PorticoFile> {
  if (file.url !== undefined) return file
  const content = file.content
  if (content === undefined) throw new TypeError(`File "${file.name}" has no content to upload.`)
  const contentType =
    file.contentType ??
    (content instanceof Blob && content.type ? content.type : undefined) ??
    (typeof content === 'string' ? 'text/plain' : 'application/octet-stream')
  const body = typeof content === 'string' ? new TextEncoder().encode(content) : content
  const answer = await client.request<{ name: string; url: string }>(
    'POST',
    `/api/files/${encodeURIComponent(file.name)}`,
    { body, contentType },
  )
  return new PorticoFile({
    name: answer.name,
    url: /^https?:\/\//.test(answer.url) ? answer.url : client.url(answer.url),
    contentType,
  })
}
