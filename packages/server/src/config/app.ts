import { checksummedAddress } from './address.ts'
import sdkPackage from '../../../sdk/package.json' with { type: 'json' }
import { positiveInt, type Env } from './values.ts'

/**
 * The application's identity and the rules of sign-in, sessions and events, read from
 * the environment by `loadConfig`. Every field has a local default so `npm start` needs nothing.
 */
export interface AppConfig {
  /** Put in every sign-in message as its Request ID; a message for another app is refused. */
  appId: string
  appName: string
  /**
   * Origins the app is served from (`https://example.org`). A sign-in message must name one of
   * them as domain and URI, and cookie requests that change state must come from one of them.
   * The first one is the canonical origin. The request's Host header is never used instead.
   */
  publicOrigins: string[]
  allowedChainIds: number[]
  /** Checksummed addresses that run the site: event statistics, and the console with full access. */
  adminAddresses: string[]
  /** Checksummed addresses that may see the console but change nothing (VIEWER_ADDRESSES). */
  viewerAddresses: string[]
  sessionTtlMs: number
  /** How long an issued nonce can be used. */
  nonceTtlMs: number
  /** Longest allowed distance from now to a message's Expiration Time. */
  signInMaxLifetimeMs: number
  /** Tolerated difference between the server's and the signer's clocks. */
  clockSkewMs: number
  /** Requests per minute per client on the sign-in endpoints. */
  authRateLimit: number
  /** Events per minute per client. */
  eventsRateLimit: number
  /** Object writes (create, update, delete) per minute per client that is not signed in. */
  signedOutWriteRateLimit: number
  /** Secret mixed into the daily visitor hash; random per process when not configured. */
  visitorSecret: string | undefined
  /** Newest SDK release and the oldest one this server still works with (`GET /api/version`). */
  sdkLatest: string
  sdkMinimum: string
}

const units: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }

/** `90` (seconds), `1500ms`, `30s`, `10m`, `12h`, `7d`. */
export function parseDuration(raw: string): number | undefined {
  const match = /^(\d+)(ms|s|m|h|d)?$/.exec(raw.trim())
  if (!match) return undefined
  return Number(match[1]) * units[match[2] ?? 's']!
}

const versionPattern = /^\d+\.\d+\.\d+$/

export function loadAppConfig(env: Env, port: number, problems: string[]): AppConfig {
  const duration = (name: string, fallback: string, min = 1000): number => {
    const raw = env[name] || fallback
    const ms = parseDuration(raw)
    if (ms === undefined || ms < min) {
      problems.push(
        `${name} must be a duration like 90s, 10m, 12h or 7d, at least ${min} ms (got "${raw}")`,
      )
      return parseDuration(fallback)!
    }
    return ms
  }
  const positive = (name: string, fallback: number) => positiveInt(env, name, fallback, problems)
  const list = (raw: string | undefined) =>
    (raw ?? '')
      .split(',')
      .map((item) => item.trim())
      .filter(Boolean)

  const appId = env.APP_ID || 'portico'
  if (!/^[A-Za-z0-9._-]{1,64}$/.test(appId)) {
    problems.push(
      `APP_ID may use letters, digits, ".", "_" and "-" (1-64 characters; got "${appId}")`,
    )
  }
  const appName = env.APP_NAME || 'Portico'
  if (appName.length > 100 || /[\r\n]/.test(appName)) {
    problems.push('APP_NAME must be one line of at most 100 characters')
  }

  const rawOrigins = list(env.PUBLIC_ORIGINS || env.PUBLIC_ORIGIN)
  const publicOrigins = rawOrigins.length
    ? rawOrigins.flatMap((raw) => {
        const origin = parseOrigin(raw)
        if (!origin)
          problems.push(`PUBLIC_ORIGINS: "${raw}" is not an origin like https://example.org`)
        return origin ? [origin] : []
      })
    : [`http://127.0.0.1:${port}`, `http://localhost:${port}`]

  const chainList = list(env.ALLOWED_CHAIN_IDS)
  const allowedChainIds = chainList.length
    ? chainList.flatMap((raw) => {
        const id = Number(raw)
        if (!/^[1-9]\d*$/.test(raw) || !Number.isSafeInteger(id)) {
          problems.push(`ALLOWED_CHAIN_IDS: "${raw}" is not a decimal chain id`)
          return []
        }
        return [id]
      })
    : [1, 31337]

  const addresses = (name: string) =>
    list(env[name]).flatMap((raw) => {
      const address = checksummedAddress(raw)
      if (address === undefined) {
        problems.push(`${name}: "${raw}" is not an address`)
        return []
      }
      return [address]
    })
  const adminAddresses = addresses('ADMIN_ADDRESSES')
  const viewerAddresses = addresses('VIEWER_ADDRESSES')

  const sdkLatest = env.SDK_LATEST_VERSION || sdkPackage.version
  const sdkMinimum = env.SDK_MINIMUM_VERSION || '1.0.0'
  for (const [name, value] of [
    ['SDK_LATEST_VERSION', sdkLatest],
    ['SDK_MINIMUM_VERSION', sdkMinimum],
  ] as const) {
    if (!versionPattern.test(value)) problems.push(`${name} must look like 1.5.9 (got "${value}")`)
  }

  return {
    appId,
    appName,
    publicOrigins,
    allowedChainIds,
    adminAddresses,
    viewerAddresses,
    sessionTtlMs: duration('SESSION_TTL', '7d', 60_000),
    nonceTtlMs: duration('NONCE_TTL', '10m'),
    signInMaxLifetimeMs: duration('SIGN_IN_MAX_LIFETIME', '1h'),
    clockSkewMs: duration('CLOCK_SKEW', '60s', 0),
    authRateLimit: positive('AUTH_RATE_LIMIT', 120),
    eventsRateLimit: positive('EVENTS_RATE_LIMIT', 600),
    signedOutWriteRateLimit: positive('SIGNED_OUT_WRITE_RATE_LIMIT', 60),
    visitorSecret: env.EVENTS_VISITOR_SECRET || undefined,
    sdkLatest,
    sdkMinimum,
  }
}

function parseOrigin(raw: string): string | undefined {
  try {
    const url = new URL(raw)
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined
    if (url.pathname !== '/' || url.search || url.hash || url.username) return undefined
    return url.origin
  } catch {
    return undefined
  }
}
