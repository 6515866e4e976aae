import { createHmac } from 'node:crypto'

/**
 * A visitor id that counts unique visitors per day without storing who they are (no raw
 * IP address stored). It is an HMAC of the UTC day, the IP address and the user agent under a
 * secret: the same visitor gets a new id every day, and without the secret an id cannot be traced
 * back to an address. The secret is EVENTS_VISITOR_SECRET, or else one kept in the database
 * (db/shared-values.ts), so every process and every restart give one visitor the same id.
 */
export function createVisitorHasher(secret: string) {
  const key = secret
  return (ip: string, userAgent: string | undefined, now = new Date()): string =>
    createHmac('sha256', key)
      .update(`${now.toISOString().slice(0, 10)}\n${ip}\n${userAgent ?? ''}`)
      .digest('base64url')
      .slice(0, 22)
}
