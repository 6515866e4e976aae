import { createHash, randomBytes } from 'node:crypto'
import { eq } from 'drizzle-orm'
import type { FastifyInstance } from 'fastify'
import { beforeAll, describe, expect, it } from 'vitest'
import { databaseKinds, signedIn, testApp } from '../../test/helpers.ts'
import { startTestS3, type TestS3 } from '../../test/s3.ts'
import { filesCommand } from '../commands/files.ts'
import type { Database } from '../db/client.ts'
import { files } from '../db/schema.ts'
import { migrateFiles } from './migrate.ts'
import { openS3Store } from './s3.ts'

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
)
const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex')
const MAX = 12 * 1024 * 1024

/** A request body sent in chunks with no Content-Length, as a browser streams it. */
function chunked(chunks: Buffer[], pauseMs = 0): ReadableStream<Uint8Array> {
  let i = 0
  return new ReadableStream({
    async pull(controller) {
      if (pauseMs) await new Promise((resolve) => setTimeout(resolve, pauseMs))
      if (i < chunks.length) controller.enqueue(chunks[i++]!)
      else controller.close()
    },
  })
}

describe.each(databaseKinds())('files in S3-compatible storage on %s', (kind) => {
  let s3: TestS3
  let app: FastifyInstance
  let db: Database
  let base: string
  let headers: Record<string, string>
  let other: Record<string, string>

  beforeAll(async () => {
    s3 = await startTestS3()
    ;({ app } = await testApp(kind, { files: s3.files, fileMaxBytes: MAX }))
    db = app.services.database.db
    base = await app.listen({ host: '127.0.0.1', port: 0 })
    ;({ headers } = await signedIn(app))
    ;({ headers: other } = await signedIn(app))
  })

  const upload = (name: string, type: string, body: RequestInit['body'], who = headers) =>
    fetch(`${base}/api/files/${name}`, {
      method: 'POST',
      headers: { ...who, 'content-type': type },
      body,
      duplex: 'half',
    } as RequestInit)
  const row = async (name: string) => (await db.select().from(files).where(eq(files.name, name)))[0]

  it('keeps the bytes in the store, not the database, and serves them with the same headers', async () => {
    const res = await upload('dot.png', 'image/png', PNG)
    expect(res.status).toBe(201)
    const { name, url } = (await res.json()) as { name: string; url: string }
    expect(s3.keys()).toContain(name)
    expect(await row(name)).toMatchObject({ storage: 's3', bytes: null, size: PNG.length })

    const got = await fetch(`${base}${url}`)
    expect(got.status).toBe(200)
    expect(Buffer.from(await got.arrayBuffer()).equals(PNG)).toBe(true)
    expect(got.headers.get('content-type')).toBe('image/png')
    expect(got.headers.get('content-length')).toBe(String(PNG.length))
    expect(got.headers.get('x-content-type-options')).toBe('nosniff')
    expect(got.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox")
    expect(got.headers.get('content-disposition')).toBe('inline; filename="dot.png"')

    const svg = await upload('a.svg', 'image/svg+xml', '<svg><script>alert(1)</script></svg>')
    const served = await fetch(`${base}${((await svg.json()) as { url: string }).url}`)
    expect(served.headers.get('content-disposition')).toBe('attachment; filename="a.svg"')
    expect(served.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox")
  })

  it('streams a file of several parts without a declared length, byte for byte', async () => {
    // 11 MB in 64 KB chunks: more than two 5 MB parts, so the store gets a multipart upload.
    const bytes = randomBytes(11 * 1024 * 1024)
    const parts = Array.from({ length: bytes.length / 65536 }, (_, i) =>
      bytes.subarray(i * 65536, (i + 1) * 65536),
    )
    const res = await upload('big.bin', 'application/octet-stream', chunked(parts))
    expect(res.status).toBe(201)
    const { url, name } = (await res.json()) as { url: string; name: string }
    expect((await row(name))?.size).toBe(bytes.length)
    const got = Buffer.from(await (await fetch(`${base}${url}`)).arrayBuffer())
    expect(sha(got)).toBe(sha(bytes))
  })

  it('refuses a streamed file over the limit and an empty one, leaving nothing behind', async () => {
    const before = s3.keys().length
    const rows = (await db.select({ name: files.name }).from(files)).length
    const parts = Array.from({ length: 13 }, () => randomBytes(1024 * 1024))
    const big = await upload('huge.bin', 'application/octet-stream', chunked(parts))
    expect(big.status).toBe(413)
    expect(((await big.json()) as { error: { code: string } }).error.code).toBe('body_too_large')
    const empty = await upload('empty.txt', 'text/plain', chunked([]))
    expect(empty.status).toBe(400)
    expect(((await empty.json()) as { error: { code: string } }).error.code).toBe('empty_file')
    expect(s3.keys().length).toBe(before)
    expect((await db.select({ name: files.name }).from(files)).length).toBe(rows)
  })

  it('deletes a file with its bytes, for its owner only', async () => {
    const { name, url } = (await (await upload('gone.txt', 'text/plain', 'bye')).json()) as {
      name: string
      url: string
    }
    const del = (who: Record<string, string>) =>
      fetch(`${base}${url}`, { method: 'DELETE', headers: who })
    expect((await del(other)).status).toBe(404)
    expect((await del({})).status).toBe(401)
    expect(s3.keys()).toContain(name)
    expect((await del(headers)).status).toBe(204)
    expect(s3.keys()).not.toContain(name)
    expect(await row(name)).toBeUndefined()
    expect((await fetch(`${base}${url}`)).status).toBe(404)
  })

  it('answers 503 while the store is down, writes nothing, and recovers when it is back', async () => {
    const kept = (await (await upload('kept.txt', 'text/plain', 'still here')).json()) as {
      url: string
    }
    const rows = (await db.select({ name: files.name }).from(files)).length
    const keys = s3.keys().length
    await s3.stop()
    try {
      const refused = await upload('later.txt', 'text/plain', 'not now')
      expect(refused.status).toBe(503)
      const body = (await refused.json()) as { error: { code: string; message: string } }
      expect(body.error.code).toBe('file_store_unavailable')
      expect(body.error.message).toMatch(/nothing was changed.*try again/i)
      expect((await fetch(`${base}${kept.url}`)).status).toBe(503)
      const ready = await fetch(`${base}/api/ready`)
      expect(ready.status).toBe(503)
      expect(((await ready.json()) as { files: string }).files).toBe('unreachable')
      expect((await fetch(`${base}/api/health`)).status).toBe(200)
    } finally {
      await s3.start()
    }
    expect((await db.select({ name: files.name }).from(files)).length).toBe(rows)
    expect(s3.keys().length).toBe(keys)
    expect(await (await fetch(`${base}${kept.url}`)).text()).toBe('still here')
    expect((await fetch(`${base}/api/ready`)).status).toBe(200)
  })

  it('loses nothing when the store goes down in the middle of an upload', async () => {
    const rows = (await db.select({ name: files.name }).from(files)).length
    const keys = s3.keys().length
    const parts = Array.from({ length: 8 }, () => randomBytes(1024 * 1024))
    // The store is taken down once the first part (5 MB) is on its way.
    const stopped = new Promise<void>((resolve) =>
      setTimeout(() => void s3.stop().then(resolve), 300),
    )
    const res = await upload('cut.bin', 'application/octet-stream', chunked(parts, 60))
    await stopped
    await s3.start()
    expect(res.status).toBe(503)
    expect((await db.select({ name: files.name }).from(files)).length).toBe(rows)
    expect(s3.keys().length).toBe(keys)
  })

  it('moves every file to the database and back byte for byte, resuming a stopped run', async () => {
    const sent = new Map<string, Buffer>()
    for (let i = 0; i < 3; i++) {
      const bytes = randomBytes(1000 + i)
      const res = await upload(`m${i}.bin`, 'application/octet-stream', bytes)
      sent.set(((await res.json()) as { name: string }).name, bytes)
    }
    const bucket = await openS3Store(s3.settings)
    try {
      const stop = new AbortController()
      const first = await migrateFiles({
        db,
        bucket,
        to: 'database',
        signal: stop.signal,
        onProgress: () => stop.abort(),
      })
      expect(first.moved).toBe(1)
      const rest = await migrateFiles({ db, bucket, to: 'database' })
      expect(rest.moved).toBe(first.total - 1)
      expect(rest.missing).toEqual([])
      expect(s3.keys()).toEqual([])
      for (const [name, bytes] of sent) {
        expect(await row(name)).toMatchObject({ storage: 'database' })
        const got = Buffer.from(await (await fetch(`${base}/api/files/${name}`)).arrayBuffer())
        expect(got.equals(bytes), name).toBe(true)
      }

      const back = await migrateFiles({ db, bucket, to: 's3' })
      expect(back.moved).toBe(rest.moved + 1)
      for (const [name, bytes] of sent) {
        expect(await row(name)).toMatchObject({ storage: 's3', bytes: null })
        const got = Buffer.from(await (await fetch(`${base}/api/files/${name}`)).arrayBuffer())
        expect(got.equals(bytes), name).toBe(true)
      }
      // Nothing left to move: a second run is a no-op.
      expect((await migrateFiles({ db, bucket, to: 's3' })).total).toBe(0)
    } finally {
      bucket.close()
    }
  })
})

describe('portico files', () => {
  it('migrates the embedded database\u2019s files to the store and back, printing progress', async () => {
    const s3 = await startTestS3()
    const fs = await import('node:fs')
    const os = await import('node:os')
    const path = await import('node:path')
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portico-files-'))
    const env = {
      DATA_DIR: dataDir,
      FILES_S3_ENDPOINT: s3.settings.endpoint,
      FILES_S3_BUCKET: s3.settings.bucket,
      FILES_S3_ACCESS_KEY_ID: 'S3RVER',
      FILES_S3_SECRET_ACCESS_KEY: 'S3RVER',
    }
    const { openDatabase } = await import('../db/client.ts')
    const { startSession } = await import('../../test/helpers.ts')
    const handle = await openDatabase({ kind: 'pglite', dir: dataDir })
    const { user } = await startSession(handle.db, { address: `0x${'ab'.repeat(20)}` })
    await handle.db.insert(files).values(
      ['a', 'b'].map((n) => ({
        name: `${n.repeat(16)}_${n}.txt`,
        ownerId: user.id,
        contentType: 'text/plain',
        size: 5,
        storage: 'database' as const,
        bytes: Buffer.from(`${n}bytes`.slice(0, 5)),
      })),
    )
    await handle.close()

    const lines: string[] = []
    const print = (line: string) => lines.push(line)
    await filesCommand(['migrate', '--to', 's3'], { env, print })
    expect(lines).toContain('moved 2 of 2 files (0.0 MB of 0.0 MB)')
    expect(lines.at(-1)).toMatch(/^Done: every file is now kept in the S3-compatible store/)
    expect(s3.keys().sort()).toEqual(['aaaaaaaaaaaaaaaa_a.txt', 'bbbbbbbbbbbbbbbb_b.txt'])
    lines.length = 0
    await filesCommand(['status'], { env, print })
    expect(lines).toEqual(['s3\t2 files\t0.0 MB'])
    lines.length = 0
    await filesCommand(['migrate', '--to', 'database'], { env, print })
    expect(s3.keys()).toEqual([])
    await expect(filesCommand(['migrate', '--to', 'nowhere'], { env, print })).rejects.toThrow(
      /--to is s3 or database/,
    )
    await expect(
      filesCommand(['migrate', '--to', 's3'], { env: { DATA_DIR: dataDir }, print }),
    ).rejects.toThrow(/FILES_S3_BUCKET/)
  })
})
