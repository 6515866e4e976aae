import path from 'node:path'
import { loadAppConfig, type AppConfig } from './app.ts'
import { positiveInt, type Env } from './values.ts'
import { loadRpcConfig, type RpcGatewayConfig } from './rpc.ts'
import { loadFilesConfig, type FilesConfig } from './files.ts'
import { loadSyncConfig, type SyncConfig } from './sync.ts'
import { loadAddressIndexConfig, type AddressIndexConfig } from './addresses.ts'
import { loadMailConfig, type MailConfig } from './mail.ts'
import { loadWeb3ApiConfig, type Web3ApiConfig } from './web3api.ts'

/** Everything the server reads from its environment, parsed once at start. */
export interface ServerConfig {
  host: string
  port: number
  /** Embedded database and lock file live here (PGlite). Ignored for the data when `databaseUrl` is set. */
  dataDir: string
  /** `postgres://…` → PostgreSQL; absent → embedded PGlite under `dataDir`. */
  databaseUrl: string | undefined
  /** Built web app to serve; absent or missing → API only. */
  webDir: string | undefined
  logLevel: string
  /** App identity, sign-in, sessions, events and SDK versions (APP_ID, PUBLIC_ORIGINS, …). */
  app: AppConfig
  /** Largest file upload in bytes (FILE_MAX_BYTES, default 10 MB). */
  fileMaxBytes: number
  /** Where uploaded files' bytes are kept: the database (default) or an S3-compatible store. */
  files: FilesConfig
  /** Most sub-requests in one `POST /api/batch` (BATCH_MAX_REQUESTS, default 50). */
  batchMaxRequests: number
  /** RPC gateway: upstream nodes per chain, batch cap, rate limits (`RPC_*` variables). */
  rpc: RpcGatewayConfig
  /** Contract syncs: WebSocket nodes whose new heads they follow (`RPC_WS_URL_*`). */
  sync: SyncConfig
  /** Moralis v1's Web3 API from the chains' nodes: chain names, DEX, ENS, metadata (`WEB3API_*`). */
  web3api: Web3ApiConfig
  /** The address index (`ADDRESS_INDEX_*`): the chains it runs on and how. */
  addresses: AddressIndexConfig
  /**
   * Which peers may name the client's address in `X-Forwarded-For` (TRUST_PROXY): false (off,
   * the default), a hop count, or the proxies' addresses and CIDR ranges.
   */
  trustProxy: false | number | string[]
  /** Connection time-outs (ms), so a client that stalls cannot hold a connection open. */
  timeouts: {
    /** Whole request, headers and body, must arrive within this (REQUEST_TIMEOUT_MS, 60 s). */
    requestMs: number
    /** Headers must arrive within this (HEADERS_TIMEOUT_MS, 20 s). */
    headersMs: number
    /** A connection with no traffic either way is closed after this (IDLE_TIMEOUT_MS, 60 s). */
    idleMs: number
  }
  /** Bearer token for `GET /api/metrics` (METRICS_TOKEN); absent → metrics are off. */
  metricsToken: string | undefined
  /** Most bytes of objects one answer may carry: a query, or all results of a batch (ANSWER_MAX_BYTES, 16 MB). */
  answerMaxBytes: number
  /** The Moralis v1 / Parse compatibility mount. */
  compat: {
    /** Path of the mount (COMPAT_MOUNT, `/server`); undefined when switched off (`off`). */
    mount: string | undefined
    /** Whether the v1 clients' own sign-in message (signed server time) is accepted (COMPAT_LEGACY_SIGN_IN). */
    legacySignIn: boolean
    /** The master key (MASTER_KEY, at least 16 characters); undefined → no master key (the default). */
    masterKey: string | undefined
    /** Addresses and CIDRs the master key is accepted from (MASTER_KEY_IPS; default loopback). */
    masterKeyIps: string[]
    /**
     * Portico's narrower defaults instead of Parse's (COMPAT_STRICT_DEFAULTS, off): a class
     * without permissions takes no signed-out creates, an object saved without an ACL is its
     * creator's to write. Off, the mount and cloud code have Parse's (parse-defaults.ts).
     */
    strictDefaults?: boolean | undefined
    /**
     * What a deleted user's objects and files become (USER_DELETE_OBJECTS): `keep` (handed over to
     * a user who never signs in, the default) or `delete`.
     */
    userDeleteObjects?: 'keep' | 'delete' | undefined
    /** Whether a create may name its objectId, as Parse's `allowCustomObjectId` (COMPAT_ALLOW_CUSTOM_OBJECT_ID). */
    allowCustomObjectId?: boolean | undefined
  }
  /** Outgoing mail (SMTP_URL, MAIL_FROM): password resets and email verifications. */
  mail: MailConfig
  /** The site's server functions: a JavaScript module whose default export defines them (FUNCTIONS_MODULE). */
  functionsModule: string | undefined
  /** The site's cloud code: a Parse / Moralis v1 `cloud/main.js` or folder of files (CLOUD_CODE). */
  cloudCode: string | undefined
  /** Most milliseconds one cloud code function or trigger may take (CLOUD_TIMEOUT_MS, 30 s; jobs have none). */
  cloudTimeoutMs: number
  /** How often live sockets re-check their sessions, closing those whose session ended (LIVE_SESSION_CHECK_MS, 30 s). */
  liveSessionCheckMs: number
  /** Most live-query sockets one client address may hold open (LIVE_MAX_SOCKETS_PER_ADDRESS, 20). */
  liveMaxSocketsPerAddress: number
  /** The variables that were set (non-empty) in the environment it was read from: the rest are defaults. */
  fromEnvironment: string[]
}

export class ConfigError extends Error {
  override name = 'ConfigError'
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`)
  }
}

/**
 * Reads the server configuration from environment variables.
 * Collects every problem before failing, so one start shows all that is wrong.
 */
export function loadConfig(
  env: Env = process.env,
  defaults: Partial<ServerConfig> = {},
): ServerConfig {
  const problems: string[] = []
  const port = parsePort(env.PORT, defaults.port ?? 3000, problems)
  const databaseUrl = env.DATABASE_URL || defaults.databaseUrl
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    problems.push('DATABASE_URL must start with postgres:// or postgresql://')
  }
  const config: ServerConfig = {
    host: env.HOST || defaults.host || '127.0.0.1',
    port,
    dataDir: path.resolve(env.DATA_DIR || defaults.dataDir || 'data'),
    databaseUrl,
    webDir: env.WEB_DIR ? path.resolve(env.WEB_DIR) : defaults.webDir,
    logLevel: env.LOG_LEVEL || defaults.logLevel || 'warn',
    app: defaults.app ?? loadAppConfig(env, port, problems),
    fileMaxBytes: positiveInt(
      env,
      'FILE_MAX_BYTES',
      defaults.fileMaxBytes ?? 10 * 1024 * 1024,
      problems,
    ),
    files: defaults.files ?? loadFilesConfig(env, problems),
    batchMaxRequests: positiveInt(
      env,
      'BATCH_MAX_REQUESTS',
      defaults.batchMaxRequests ?? 50,
      problems,
    ),
    rpc: defaults.rpc ?? loadRpcConfig(env, problems),
    sync: defaults.sync ?? loadSyncConfig(env, problems),
    web3api: defaults.web3api ?? loadWeb3ApiConfig(env, problems),
    addresses: defaults.addresses ?? loadAddressIndexConfig(env, problems),
    mail: defaults.mail ?? loadMailConfig(env, problems),
    trustProxy: parseTrustProxy(env.TRUST_PROXY, defaults.trustProxy ?? false, problems),
    timeouts: {
      requestMs: positiveInt(
        env,
        'REQUEST_TIMEOUT_MS',
        defaults.timeouts?.requestMs ?? 60_000,
        problems,
      ),
      headersMs: positiveInt(
        env,
        'HEADERS_TIMEOUT_MS',
        defaults.timeouts?.headersMs ?? 20_000,
        problems,
      ),
      idleMs: positiveInt(env, 'IDLE_TIMEOUT_MS', defaults.timeouts?.idleMs ?? 60_000, problems),
    },
    metricsToken: env.METRICS_TOKEN || defaults.metricsToken || undefined,
    answerMaxBytes: positiveInt(
      env,
      'ANSWER_MAX_BYTES',
      defaults.answerMaxBytes ?? 16 * 1024 * 1024,
      problems,
    ),
    compat: {
      mount: '/server',
      legacySignIn: true,
      masterKey: undefined,
      masterKeyIps: [...LOOPBACK],
    },
    functionsModule: undefined,
    cloudCode: undefined,
    cloudTimeoutMs: positiveInt(
      env,
      'CLOUD_TIMEOUT_MS',
      defaults.cloudTimeoutMs ?? 30_000,
      problems,
    ),
    liveSessionCheckMs: positiveInt(
      env,
      'LIVE_SESSION_CHECK_MS',
      defaults.liveSessionCheckMs ?? 30_000,
      problems,
    ),
    liveMaxSocketsPerAddress: positiveInt(
      env,
      'LIVE_MAX_SOCKETS_PER_ADDRESS',
      defaults.liveMaxSocketsPerAddress ?? 20,
      problems,
    ),
    fromEnvironment: Object.keys(env).filter((name) => env[name] !== undefined && env[name] !== ''),
  }
  config.compat = defaults.compat ?? loadCompatConfig(env, problems)
  config.functionsModule = env.FUNCTIONS_MODULE
    ? path.resolve(env.FUNCTIONS_MODULE)
    : defaults.functionsModule
  config.cloudCode = env.CLOUD_CODE ? path.resolve(env.CLOUD_CODE) : defaults.cloudCode
  if (config.timeouts.headersMs > config.timeouts.requestMs) {
    problems.push('HEADERS_TIMEOUT_MS cannot be longer than REQUEST_TIMEOUT_MS')
  }
  if (problems.length) throw new ConfigError(problems)
  return config
}

function loadCompatConfig(env: Env, problems: string[]): ServerConfig['compat'] {
  const raw = (env.COMPAT_MOUNT ?? '/server').trim()
  let mount: string | undefined = raw.replace(/\/+$/, '')
  if (raw === 'off' || raw === 'false') mount = undefined
  else if (!/^(\/[A-Za-z0-9_-]{1,64}){1,4}$/.test(mount) || mount.startsWith('/api')) {
    problems.push(
      `COMPAT_MOUNT is a path like /server (letters, digits, _ and -; not under /api), or off (got "${raw}")`,
    )
    mount = '/server'
  }
  const legacy = (env.COMPAT_LEGACY_SIGN_IN ?? 'true').trim()
  if (legacy !== 'true' && legacy !== 'false')
    problems.push(`COMPAT_LEGACY_SIGN_IN is true or false (got "${legacy}")`)
  const strict = (env.COMPAT_STRICT_DEFAULTS ?? 'false').trim()
  if (strict !== 'true' && strict !== 'false')
    problems.push(`COMPAT_STRICT_DEFAULTS is true or false (got "${strict.slice(0, 20)}")`)
  const customIds = (env.COMPAT_ALLOW_CUSTOM_OBJECT_ID ?? 'false').trim()
  if (customIds !== 'true' && customIds !== 'false')
    problems.push(
      `COMPAT_ALLOW_CUSTOM_OBJECT_ID is true or false (got "${customIds.slice(0, 20)}")`,
    )
  const userObjects = (env.USER_DELETE_OBJECTS ?? 'keep').trim()
  if (userObjects !== 'keep' && userObjects !== 'delete')
    problems.push(`USER_DELETE_OBJECTS is keep or delete (got "${userObjects.slice(0, 20)}")`)
  const masterKey = env.MASTER_KEY?.trim() || undefined
  if (masterKey !== undefined && masterKey.length < 16)
    problems.push('MASTER_KEY must be at least 16 characters (for example `openssl rand -hex 32`)')
  const ips = (env.MASTER_KEY_IPS ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
  const badIps = ips.filter(
    (entry) => !CIDR_V4.test(entry) && !(entry.includes(':') && CIDR_V6.test(entry)),
  )
  if (badIps.length)
    problems.push(
      `MASTER_KEY_IPS is a comma-separated list of addresses/CIDRs (not ${badIps.map((b) => `"${b}"`).join(', ')})`,
    )
  return {
    mount,
    legacySignIn: legacy !== 'false',
    masterKey,
    masterKeyIps: ips.length ? ips : [...LOOPBACK],
    strictDefaults: strict === 'true',
    userDeleteObjects: userObjects === 'delete' ? 'delete' : 'keep',
    allowCustomObjectId: customIds === 'true',
  }
}

/** Where the master key is accepted from unless MASTER_KEY_IPS says otherwise. */
const LOOPBACK = ['127.0.0.1/8', '::1/128']

const CIDR_V4 = /^(\d{1,3})(\.\d{1,3}){3}(\/(3[0-2]|[12]?\d))?$/
const CIDR_V6 = /^[0-9a-fA-F:.]+(\/(12[0-8]|1[01]\d|\d{1,2}))?$/

/** `TRUST_PROXY`: empty or `false` → off; a whole number → hops; else addresses/CIDRs. */
function parseTrustProxy(
  raw: string | undefined,
  fallback: ServerConfig['trustProxy'],
  problems: string[],
): ServerConfig['trustProxy'] {
  if (raw === undefined || raw.trim() === '') return fallback
  if (raw.trim() === 'false') return false
  if (/^\d+$/.test(raw.trim())) return Number(raw.trim())
  const entries = raw.split(',').map((entry) => entry.trim())
  const bad = entries.filter(
    (entry) => !CIDR_V4.test(entry) && !(entry.includes(':') && CIDR_V6.test(entry)),
  )
  if (bad.length) {
    problems.push(
      `TRUST_PROXY must be a hop count or proxy addresses/CIDRs, comma-separated (not ${bad.map((b) => `"${b}"`).join(', ')})`,
    )
    return fallback
  }
  return entries
}

function parsePort(raw: string | undefined, fallback: number, problems: string[]): number {
  if (raw === undefined || raw === '') return fallback
  const port = Number(raw)
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    problems.push(`PORT must be a whole number from 0 to 65535 (got "${raw}")`)
    return fallback
  }
  return port
}
