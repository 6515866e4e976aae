import { createHash } from 'node:crypto'
import type { ServerConfig } from './config/server.ts'

/**
 * The settings every process on one database must share, by the variable that sets them: limits,
 * sessions and visitor counts are shared, so a process whose values differ from a running one's
 * is refused (see db/cluster/peers.ts). Only a digest of each value is stored, so secrets never
 * reach the table.
 */
export function sharedSettings(config: ServerConfig): Record<string, string> {
  const app = config.app
  const values: Record<string, unknown> = {
    APP_ID: app.appId,
    PUBLIC_ORIGINS: app.publicOrigins,
    ALLOWED_CHAIN_IDS: app.allowedChainIds,
    ADMIN_ADDRESSES: [...app.adminAddresses].map((a) => a.toLowerCase()).sort(),
    VIEWER_ADDRESSES: [...app.viewerAddresses].map((a) => a.toLowerCase()).sort(),
    SESSION_TTL: app.sessionTtlMs,
    NONCE_TTL: app.nonceTtlMs,
    SIGN_IN_MAX_LIFETIME: app.signInMaxLifetimeMs,
    AUTH_RATE_LIMIT: app.authRateLimit,
    EVENTS_RATE_LIMIT: app.eventsRateLimit,
    SIGNED_OUT_WRITE_RATE_LIMIT: app.signedOutWriteRateLimit,
    EVENTS_VISITOR_SECRET: app.visitorSecret ?? null,
    RPC_RATE_LIMIT_PER_KEY: config.rpc.rateLimitPerKey,
    RPC_RATE_LIMIT_PER_IP: config.rpc.rateLimitPerIp,
    WEB3API_RATE_LIMIT_PER_IP: config.web3api.rateLimitPerIp,
    BATCH_MAX_REQUESTS: config.batchMaxRequests,
    LIVE_MAX_SOCKETS_PER_ADDRESS: config.liveMaxSocketsPerAddress,
    ANSWER_MAX_BYTES: config.answerMaxBytes,
    FILE_MAX_BYTES: config.fileMaxBytes,
    // Uploads from every process must land where every process reads them.
    FILES_STORAGE: config.files.storage,
    FILES_S3_BUCKET:
      config.files.storage === 's3' ? [config.files.s3.endpoint, config.files.s3.bucket] : null,
  }
  return Object.fromEntries(
    Object.entries(values).map(([name, value]) => [
      name,
      createHash('sha256').update(JSON.stringify(value)).digest('base64url').slice(0, 16),
    ]),
  )
}
