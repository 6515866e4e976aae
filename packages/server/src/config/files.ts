import type { Env } from './values.ts'

/** Where uploaded files' bytes live (FILES_STORAGE). */
export type FilesConfig =
  | { storage: 'database' }
  | {
      storage: 's3'
      s3: S3Settings
    }

export interface S3Settings {
  /** The store's URL for self-hosted S3-compatible stores (FILES_S3_ENDPOINT); absent → AWS. */
  endpoint: string | undefined
  bucket: string
  /** FILES_S3_REGION, default us-east-1 (most self-hosted stores ignore it but sign with it). */
  region: string
  /**
   * FILES_S3_ACCESS_KEY_ID and FILES_S3_SECRET_ACCESS_KEY; absent → the AWS SDK's own chain
   * (AWS_ACCESS_KEY_ID, instance roles, …).
   */
  credentials: { accessKeyId: string; secretAccessKey: string } | undefined
  /** Bucket in the path (`endpoint/bucket/key`) rather than the host name (FILES_S3_PATH_STYLE). */
  pathStyle: boolean
}

/**
 * `FILES_STORAGE=database` (the default) keeps bytes in the database; `s3` streams them to an
 * S3-compatible store named by the `FILES_S3_*` variables. Problems are added to `problems`.
 */
export function loadFilesConfig(env: Env, problems: string[]): FilesConfig {
  const storage = (env.FILES_STORAGE ?? 'database').trim() || 'database'
  if (storage === 'database') return { storage }
  if (storage !== 's3') {
    problems.push(`FILES_STORAGE is database or s3 (got "${storage.slice(0, 40)}")`)
    return { storage: 'database' }
  }
  return { storage, s3: loadS3Settings(env, problems) }
}

export function loadS3Settings(env: Env, problems: string[]): S3Settings {
  const endpoint = env.FILES_S3_ENDPOINT?.trim() || undefined
  if (endpoint && !/^https?:\/\/[^/\s]+\/?$/.test(endpoint))
    problems.push("FILES_S3_ENDPOINT is the store's URL, like http://127.0.0.1:9000 (no path)")
  const bucket = env.FILES_S3_BUCKET?.trim() ?? ''
  // The S3 rules for bucket names, which every compatible store enforces.
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket))
    problems.push(
      'FILES_S3_BUCKET names the bucket (3 to 63 lower-case letters, digits, dots and hyphens)',
    )
  const accessKeyId = env.FILES_S3_ACCESS_KEY_ID?.trim()
  const secretAccessKey = env.FILES_S3_SECRET_ACCESS_KEY?.trim()
  if (!!accessKeyId !== !!secretAccessKey)
    problems.push('FILES_S3_ACCESS_KEY_ID and FILES_S3_SECRET_ACCESS_KEY go together')
  const pathStyle = (env.FILES_S3_PATH_STYLE ?? (endpoint ? 'true' : 'false')).trim()
  if (pathStyle !== 'true' && pathStyle !== 'false')
    problems.push(`FILES_S3_PATH_STYLE is true or false (got "${pathStyle.slice(0, 20)}")`)
  return {
    endpoint: endpoint?.replace(/\/$/, ''),
    bucket,
    region: env.FILES_S3_REGION?.trim() || 'us-east-1',
    credentials: accessKeyId && secretAccessKey ? { accessKeyId, secretAccessKey } : undefined,
    pathStyle: pathStyle === 'true',
  }
}
