import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import S3rver from 's3rver'
import { afterAll } from 'vitest'
import type { FilesConfig, S3Settings } from '../src/config/files.ts'

export interface TestS3 {
  settings: S3Settings
  files: FilesConfig
  /** Where the store keeps its objects on disk. */
  dir: string
  /** Object keys in the bucket now. */
  keys(): string[]
  /** Takes the store down (connections refused) and brings it back on the same port. */
  stop(): Promise<void>
  start(): Promise<void>
}

/** An S3-compatible store (s3rver) on 127.0.0.1 with one bucket, stopped after the file's tests. */
export async function startTestS3(): Promise<TestS3> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portico-s3-'))
  const bucket = 'portico-files'
  let port = 0
  let server: S3rver | undefined
  const start = async () => {
    server = new S3rver({
      address: '127.0.0.1',
      port,
      silent: true,
      directory: dir,
      configureBuckets: [{ name: bucket, configs: [] }],
    })
    port = (await server.run()).port
  }
  const stop = async () => {
    const running = server
    server = undefined
    if (!running) return
    const closed = running.close()
    // Down means down: uploads in flight are cut, not waited for.
    running.httpServer.closeAllConnections()
    await closed
  }
  await start()
  afterAll(async () => {
    await stop()
    fs.rmSync(dir, { recursive: true, force: true })
  })
  const settings: S3Settings = {
    endpoint: `http://127.0.0.1:${port}`,
    bucket,
    region: 'us-east-1',
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    pathStyle: true,
  }
  return {
    settings,
    files: { storage: 's3', s3: settings },
    dir,
    keys: () =>
      fs
        .readdirSync(path.join(dir, bucket), { recursive: true, withFileTypes: true })
        .filter((entry) => entry.isFile() && entry.name.endsWith('._S3rver_object'))
        .map((entry) =>
          path
            .relative(path.join(dir, bucket), path.join(entry.parentPath, entry.name))
            .replace(/\._S3rver_object$/, ''),
        ),
    stop,
    start,
  }
}
