import path from 'node:path'
import { loadAppConfig, type AppConfig } from './app-config.ts'
import { positiveInt, type Env } from './config-values.ts'
import { loadRpcConfig, type RpcGatewayConfig } from './rpc/config.ts'

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
  /** Most sub-requests in one `POST /api/batch` (BATCH_MAX_REQUESTS, default 50). */
  batchMaxRequests: number
  /** RPC gateway: upstream nodes per chain, batch cap, rate limits (`RPC_*` variables). */
  rpc: RpcGatewayConfig
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
    batchMaxRequests: positiveInt(
      env,
      'BATCH_MAX_REQUESTS',
      defaults.batchMaxRequests ?? 50,
      problems,
    ),
    rpc: defaults.rpc ?? loadRpcConfig(env, problems),
  }
  if (problems.length) throw new ConfigError(problems)
  return config
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
