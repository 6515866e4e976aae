import { createHmac, randomBytes } from 'node:crypto'

/**
 * A visitor id that counts unique visitors per day without storing who they are (no raw
 * IP address stored). It is an HMAC of the UTC day, the IP address and the user agent under a
 * secret: the same visitor gets a new id every day, and without the secret an id cannot be traced
 * back to an address. Without a configured secret the process makes one up, so ids also change
 * on restart (and differ between processes), which only makes them rotate sooner.
 */
export function createVisitorHasher(secret: string | undefined) {
  const key = secret ?? randomBytes(32).toString('hex')
  return (ip: string, userAgent: string | undefined, now = new Date()): string =>
    createHmac('sha256', key)
      .update(`${now.toISOString().slice(0, 10)}\n${ip}\n${userAgent ?? ''}`)
      .digest('base64url')
      .slice(0, 22)
}
