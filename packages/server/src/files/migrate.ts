import { Readable } from 'node:stream'
import { and, asc, count, eq, gt, sql } from 'drizzle-orm'
import type { Database } from '../db/client.ts'
import { files } from '../db/schema.ts'
import type { ByteStore } from './s3.ts'

export interface MigrationProgress {
  /** Files moved by this run so far, and how many there were to move when it started. */
  moved: number
  total: number
  bytes: number
  totalBytes: number
  /** Files whose bytes could not be found where their row says (left as they are). */
  missing: string[]
}

/**
 * Moves every file's bytes to `to`, one file at a time: the bytes are written at the
 * destination, then the row is switched over, then the old copy is dropped. A run that stops
 * (killed, store down) leaves each file whole in one place or the other, and a new run goes on
 * with what is left. Servers keep serving throughout, since each reads a file from where its
 * row says it is.
 */
export async function migrateFiles(options: {
  db: Database
  bucket: ByteStore
  to: 'database' | 's3'
  onProgress?: (progress: MigrationProgress) => void
  signal?: AbortSignal
}): Promise<MigrationProgress> {
  const { db, bucket, to } = options
  const from = to === 's3' ? 'database' : 's3'
  const [left] = await db
    .select({ files: count(), bytes: sql<string>`coalesce(sum(${files.size}), 0)` })
    .from(files)
    .where(eq(files.storage, from))
  const progress: MigrationProgress = {
    moved: 0,
    total: left!.files,
    bytes: 0,
    totalBytes: Number(left!.bytes),
    missing: [],
  }
  let after = ''
  while (!options.signal?.aborted) {
    const [file] = await db
      .select({ name: files.name, contentType: files.contentType, size: files.size })
      .from(files)
      .where(and(eq(files.storage, from), gt(files.name, after)))
      .orderBy(asc(files.name))
      .limit(1)
    if (!file) break
    after = file.name
    const moved =
      to === 's3' ? await toStore(db, bucket, file) : await toDatabase(db, bucket, file.name)
    if (moved === 'missing') progress.missing.push(file.name)
    if (moved === 'moved') {
      progress.moved += 1
      progress.bytes += file.size
    }
    options.onProgress?.({ ...progress })
  }
  return progress
}

type Moved = 'moved' | 'missing' | 'gone'

async function toStore(
  db: Database,
  bucket: ByteStore,
  file: { name: string; contentType: string },
): Promise<Moved> {
  const [row] = await db
    .select({ bytes: files.bytes })
    .from(files)
    .where(and(eq(files.name, file.name), eq(files.storage, 'database')))
  if (!row?.bytes) return 'gone'
  await bucket.put(file.name, Readable.from([row.bytes]), file.contentType)
  const switched = await db
    .update(files)
    .set({ storage: 's3', bytes: null })
    .where(and(eq(files.name, file.name), eq(files.storage, 'database')))
    .returning({ name: files.name })
  // Deleted meanwhile: the copy just made belongs to nothing.
  if (switched.length === 0) {
    await bucket.remove(file.name)
    return 'gone'
  }
  return 'moved'
}

async function toDatabase(db: Database, bucket: ByteStore, name: string): Promise<Moved> {
  const stored = await bucket.get(name)
  if (!stored) return 'missing'
  const chunks: Buffer[] = []
  for await (const chunk of stored.body as AsyncIterable<Buffer>) chunks.push(chunk)
  const switched = await db
    .update(files)
    .set({ storage: 'database', bytes: Buffer.concat(chunks) })
    .where(and(eq(files.name, name), eq(files.storage, 's3')))
    .returning({ name: files.name })
  if (switched.length === 0) return 'gone'
  await bucket.remove(name)
  return 'moved'
}

/** Files per place, for `portico files status`. */
export async function fileCounts(
  db: Database,
): Promise<{ storage: string; files: number; bytes: number }[]> {
  const rows = await db
    .select({
      storage: files.storage,
      files: count(),
      bytes: sql<string>`coalesce(sum(${files.size}), 0)`,
    })
    .from(files)
    .groupBy(files.storage)
    .orderBy(asc(files.storage))
  return rows.map((row) => ({ ...row, bytes: Number(row.bytes) }))
}
