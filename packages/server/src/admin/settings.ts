import type { ServerConfig } from '../config/server.ts'

// The effective configuration as the console shows it: each variable's value (secrets masked)
// and whether it came from the environment or is the default.

export interface Setting {
  name: string
  value: string
  source: 'environment' | 'default'
  secret: boolean
}

const MASK = '••••••••'
const seconds = (ms: number) => `${ms / 1000} s`
const list = (values: readonly (string | number)[]) => (values.length ? values.join(', ') : '—')

/**
 * A URL with its credentials, path, query and fragment hidden: node URLs carry provider keys in
 * any of them (`/v2/<key>`, `?apikey=`, `user:key@`). Scheme, host and port stay, which is how a
 * team tells its providers apart.
 */
export function maskUrl(raw: string): string {
  try {
    const url = new URL(raw)
    const hidden = url.pathname.replace(/\/+$/, '') !== '' || url.search !== '' || url.hash !== ''
    return `${url.protocol}//${url.username || url.password ? `${MASK}@` : ''}${url.host}${hidden ? `/${MASK}` : ''}`
  } catch {
    return MASK
  }
}

export function effectiveSettings(config: ServerConfig): Setting[] {
  const app = config.app
  const rows: [name: string, value: string, secret?: boolean][] = [
    ['APP_ID', app.appId],
    ['APP_NAME', app.appName],
    ['PUBLIC_ORIGINS', list(app.publicOrigins)],
    ['ALLOWED_CHAIN_IDS', list(app.allowedChainIds)],
    ['ADMIN_ADDRESSES', list(app.adminAddresses)],
    ['VIEWER_ADDRESSES', list(app.viewerAddresses)],
    ['SESSION_TTL', seconds(app.sessionTtlMs)],
    ['NONCE_TTL', seconds(app.nonceTtlMs)],
    ['SIGN_IN_MAX_LIFETIME', seconds(app.signInMaxLifetimeMs)],
    ['CLOCK_SKEW', seconds(app.clockSkewMs)],
    ['AUTH_RATE_LIMIT', `${app.authRateLimit} per minute`],
    ['EVENTS_RATE_LIMIT', `${app.eventsRateLimit} per minute`],
    ['SIGNED_OUT_WRITE_RATE_LIMIT', `${app.signedOutWriteRateLimit} per minute`],
    [
      'EVENTS_VISITOR_SECRET',
      app.visitorSecret ? MASK : 'kept in the database, made once',
      Boolean(app.visitorSecret),
    ],
    ['HOST', config.host],
    ['PORT', String(config.port)],
    ['DATABASE_URL', config.databaseUrl ? maskUrl(config.databaseUrl) : 'embedded (PGlite)', true],
    ['DATA_DIR', config.databaseUrl ? '— (PostgreSQL)' : config.dataDir],
    ['WEB_DIR', config.webDir ?? '— (API only)'],
    ['LOG_LEVEL', config.logLevel],
    ['TRUST_PROXY', config.trustProxy === false ? 'off' : String(config.trustProxy)],
    ['FILE_MAX_BYTES', `${config.fileMaxBytes} bytes`],
    ['FILES_STORAGE', config.files.storage],
    ...(config.files.storage === 's3'
      ? ([
          ['FILES_S3_ENDPOINT', config.files.s3.endpoint ?? 'AWS'],
          ['FILES_S3_BUCKET', config.files.s3.bucket],
          ['FILES_S3_REGION', config.files.s3.region],
          [
            'FILES_S3_ACCESS_KEY_ID',
            config.files.s3.credentials ? MASK : 'AWS default chain',
            true,
          ],
          [
            'FILES_S3_SECRET_ACCESS_KEY',
            config.files.s3.credentials ? MASK : 'AWS default chain',
            true,
          ],
          ['FILES_S3_PATH_STYLE', String(config.files.s3.pathStyle)],
        ] as [string, string, boolean?][])
      : []),
    ['BATCH_MAX_REQUESTS', String(config.batchMaxRequests)],
    ['ANSWER_MAX_BYTES', `${config.answerMaxBytes} bytes`],
    ...[...config.rpc.upstreams].map(
      ([chainId, urls]) =>
        [`RPC_URL_${chainId}`, urls.map(maskUrl).join(', '), true] as [string, string, boolean],
    ),
    ['RPC_RATE_LIMIT_PER_KEY', `${config.rpc.rateLimitPerKey} per minute`],
    ['RPC_RATE_LIMIT_PER_IP', `${config.rpc.rateLimitPerIp} per minute`],
    ['RPC_MAX_BATCH', String(config.rpc.maxBatch)],
    ['RPC_TIMEOUT_MS', `${config.rpc.timeoutMs} ms`],
    ['REQUEST_TIMEOUT_MS', `${config.timeouts.requestMs} ms`],
    ['HEADERS_TIMEOUT_MS', `${config.timeouts.headersMs} ms`],
    ['IDLE_TIMEOUT_MS', `${config.timeouts.idleMs} ms`],
    ['METRICS_TOKEN', config.metricsToken ? MASK : 'off', Boolean(config.metricsToken)],
    ['COMPAT_MOUNT', config.compat.mount ?? 'off'],
    ['COMPAT_LEGACY_SIGN_IN', String(config.compat.legacySignIn)],
    ['COMPAT_STRICT_DEFAULTS', String(config.compat.strictDefaults === true)],
    ['USER_DELETE_OBJECTS', config.compat.userDeleteObjects ?? 'keep'],
    ['COMPAT_ALLOW_CUSTOM_OBJECT_ID', String(config.compat.allowCustomObjectId === true)],
    ['COMPAT_LOCAL_CHAIN_ID', config.sync.localChainId?.toString() ?? '—'],
    ['FUNCTIONS_MODULE', config.functionsModule ?? '—'],
    ['CLOUD_CODE', config.cloudCode ?? '—'],
    ['CLOUD_TIMEOUT_MS', `${config.cloudTimeoutMs} ms`],
    ['LIVE_SESSION_CHECK_MS', `${config.liveSessionCheckMs} ms`],
    ['LIVE_MAX_SOCKETS_PER_ADDRESS', String(config.liveMaxSocketsPerAddress)],
  ]
  const set = new Set(config.fromEnvironment)
  return rows.map(([name, value, secret = false]) => ({
    name,
    value,
    secret,
    source: set.has(name) ? 'environment' : 'default',
  }))
}
