import type { Readable } from 'node:stream'
import type { S3Settings } from '../config/files.ts'

// Bytes of files kept in an S3-compatible store, streamed both ways: an upload goes out in parts
// as it arrives (at most PART_BYTES × PARTS_IN_FLIGHT of it in memory), a download is piped
// from the store's answer. The AWS SDK is loaded only when a store is configured, so a server
// that keeps files in its database never loads it.

const PART_BYTES = 5 * 1024 * 1024 // the smallest part S3 accepts
const PARTS_IN_FLIGHT = 2

/** The store could not be reached or refused to work (down, wrong credentials, no bucket). */
export class FileStoreUnavailable extends Error {
  override name = 'FileStoreUnavailable'
}

export interface ByteStore {
  /** Stores `body` at `key`; on any failure nothing is left at `key` (a multipart upload is aborted). */
  put(key: string, body: Readable, contentType: string): Promise<void>
  /** The bytes at `key`, streamed; undefined when there are none. */
  get(key: string): Promise<{ body: Readable; length: number | undefined } | undefined>
  remove(key: string): Promise<void>
  /** Throws `FileStoreUnavailable` unless the bucket answers. */
  check(): Promise<void>
  close(): void
}

export async function openS3Store(settings: S3Settings): Promise<ByteStore> {
  const s3 = await import('@aws-sdk/client-s3')
  const { Upload } = await import('@aws-sdk/lib-storage')
  const client = new s3.S3Client({
    region: settings.region,
    forcePathStyle: settings.pathStyle,
    ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
    ...(settings.credentials ? { credentials: settings.credentials } : {}),
    // A store that is down answers quickly with a refusal; one that hangs must not hold uploads.
    requestHandler: { connectionTimeout: 3_000, requestTimeout: 60_000 },
    maxAttempts: 2,
  })
  const Bucket = settings.bucket

  /** Failures of the store itself become `FileStoreUnavailable`; the caller's own errors pass. */
  const storeFailure = (error: unknown, inputError?: unknown): unknown => {
    if (inputError) return inputError
    const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode
    if (status === undefined || status >= 500 || status === 403 || status === 404)
      return new FileStoreUnavailable((error as Error).message)
    return error
  }

  return {
    async put(key, body, contentType) {
      // An error from the body itself (the client went away, the size limit) is what failed.
      let inputError: unknown
      body.once('error', (error) => (inputError ??= error))
      const upload = new Upload({
        client,
        params: { Bucket, Key: key, Body: body, ContentType: contentType },
        partSize: PART_BYTES,
        queueSize: PARTS_IN_FLIGHT,
        leavePartsOnError: false,
      })
      try {
        await upload.done()
      } catch (error) {
        body.destroy()
        // A single-part upload that failed half-way may still have landed: make sure it did not.
        await client.send(new s3.DeleteObjectCommand({ Bucket, Key: key })).catch(() => {})
        throw storeFailure(error, inputError)
      }
    },
    async get(key) {
      try {
        const answer = await client.send(new s3.GetObjectCommand({ Bucket, Key: key }))
        return { body: answer.Body as Readable, length: answer.ContentLength }
      } catch (error) {
        if ((error as { name?: string }).name === 'NoSuchKey') return undefined
        throw storeFailure(error)
      }
    },
    async remove(key) {
      try {
        await client.send(new s3.DeleteObjectCommand({ Bucket, Key: key }))
      } catch (error) {
        throw storeFailure(error)
      }
    },
    async check() {
      try {
        await client.send(new s3.HeadBucketCommand({ Bucket }))
      } catch (error) {
        throw new FileStoreUnavailable((error as Error).message || (error as Error).name)
      }
    },
    close() {
      client.destroy()
    },
  }
}
