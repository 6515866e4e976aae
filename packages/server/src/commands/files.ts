import { parseArgs } from 'node:util'
import { ConfigError } from '../config/server.ts'
import { loadS3Settings } from '../config/files.ts'
import { fileCounts, migrateFiles, type MigrationProgress } from '../files/migrate.ts'
import { openS3Store } from '../files/s3.ts'
import { openConfiguredDatabase, UsageError } from './database.ts'

const usage = `Usage:
  portico files status                      how many files (and bytes) are kept where
  portico files migrate --to s3|database    moves every file's bytes; run it again to resume

migrate reads the store from FILES_S3_ENDPOINT, FILES_S3_BUCKET, FILES_S3_REGION,
FILES_S3_ACCESS_KEY_ID, FILES_S3_SECRET_ACCESS_KEY and FILES_S3_PATH_STYLE. Servers on
PostgreSQL keep serving while it runs; the embedded database must be stopped first.`

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`

/** `portico files …`: where uploaded files are kept, and moving them between places. */
export async function filesCommand(
  argv: string[],
  {
    env = process.env,
    print = console.log,
    signal,
  }: {
    env?: Record<string, string | undefined>
    print?: (line: string) => void
    signal?: AbortSignal
  } = {},
): Promise<MigrationProgress | undefined> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { to: { type: 'string' } },
  })
  const action = positionals[0]
  if (action !== 'status' && action !== 'migrate') throw new UsageError(usage)
  const to = values.to
  if (action === 'migrate' && to !== 's3' && to !== 'database')
    throw new UsageError(`--to is s3 or database.\n${usage}`)

  const database = await openConfiguredDatabase(env)
  try {
    if (action === 'status') {
      const counts = await fileCounts(database.db)
      if (counts.length === 0) print('No files.')
      for (const place of counts)
        print(`${place.storage}\t${place.files} files\t${megabytes(place.bytes)}`)
      return undefined
    }
    const problems: string[] = []
    const settings = loadS3Settings(env, problems)
    if (problems.length) throw new ConfigError(problems)
    const bucket = await openS3Store(settings)
    try {
      await bucket.check()
      let shown = 0
      const show = (p: MigrationProgress) =>
        print(
          `moved ${p.moved} of ${p.total} files (${megabytes(p.bytes)} of ${megabytes(p.totalBytes)})`,
        )
      const result = await migrateFiles({
        db: database.db,
        bucket,
        to: to as 's3' | 'database',
        signal,
        onProgress: (p) => {
          if (Date.now() - shown < 1_000) return
          shown = Date.now()
          show(p)
        },
      })
      show(result)
      for (const name of result.missing) print(`missing from the store, left as it is: ${name}`)
      print(
        signal?.aborted
          ? 'Stopped. Run the same command again to move the rest.'
          : `Done: every file is now kept in ${to === 's3' ? 'the S3-compatible store' : 'the database'}.${to === 's3' ? ' Set FILES_STORAGE=s3 so new uploads go there too.' : ' Set FILES_STORAGE=database so new uploads stay there.'}`,
      )
      return result
    } finally {
      bucket.close()
    }
  } finally {
    await database.close()
  }
}
