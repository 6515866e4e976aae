import { createHash, randomUUID } from 'node:crypto'
import { eq, gt, sql } from 'drizzle-orm'
import type { ServerConfig } from '../config.ts'
import { ConfigError } from '../config.ts'
import type { Database } from './client.ts'
import { serverProcesses } from './schema.ts'

/** A process not seen for this long is gone (it refreshes every third of it). */
export const LIVE_MS = 30_000

/**
 * The settings every process on one database must share, by the variable that sets them. Only
 * a digest of each value is stored, so secrets never reach the table.
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
    EVENTS_VISITOR_SECRET: app.visitorSecret ?? null,
    RPC_RATE_LIMIT_PER_KEY: config.rpc.rateLimitPerKey,
    RPC_RATE_LIMIT_PER_IP: config.rpc.rateLimitPerIp,
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

/**
 * Joins the processes running on this database: refuses to start (a `ConfigError` naming the
 * settings) when a live process has different values for settings that must match, since limits,
 * sessions and visitor counts are shared. Returns `leave`, which stops the heartbeat and removes
 * this process.
 */
export async function joinPeers(
  db: Database,
  settings: Record<string, string>,
): Promise<{ id: string; leave(): Promise<void> }> {
  const since = new Date(Date.now() - LIVE_MS)
  const live = await db.select().from(serverProcesses).where(gt(serverProcesses.lastSeen, since))
  const differing = new Set<string>()
  for (const peer of live) {
    const theirs = peer.settings as Record<string, string>
    for (const name of new Set([...Object.keys(theirs), ...Object.keys(settings)])) {
      if (theirs[name] !== settings[name]) differing.add(name)
    }
  }
  if (differing.size) {
    throw new ConfigError([
      `these settings differ from the ${live.length === 1 ? 'server' : 'servers'} already running on this database: ${[...differing].sort().join(', ')}. Give every process the same values.`,
    ])
  }
  const id = randomUUID()
  await db.insert(serverProcesses).values({ id, settings })
  // Forget processes that stopped without leaving (killed), now and then.
  await db
    .delete(serverProcesses)
    .where(sql`${serverProcesses.lastSeen} < now() - interval '1 day'`)
  const beat = setInterval(() => {
    db.update(serverProcesses)
      .set({ lastSeen: new Date() })
      .where(eq(serverProcesses.id, id))
      .catch(() => {})
  }, LIVE_MS / 3)
  beat.unref()
  return {
    id,
    async leave() {
      clearInterval(beat)
      await db
        .delete(serverProcesses)
        .where(eq(serverProcesses.id, id))
        .catch(() => {})
    },
  }
}
