import { randomUUID } from 'node:crypto'
import type { IncomingMessage } from 'node:http'

/** What a proxy may send as a request id: short, printable, no spaces. */
const VALID = /^[A-Za-z0-9._:-]{1,128}$/

function ipv4ToNumber(address: string): number | undefined {
  const parts = address.split('.')
  if (parts.length !== 4) return undefined
  let value = 0
  for (const part of parts) {
    const byte = Number(part)
    if (!/^\d{1,3}$/.test(part) || byte > 255) return undefined
    value = value * 256 + byte
  }
  return value
}

/** True when `address` is one of the trusted proxies (addresses, IPv4 CIDRs) of TRUST_PROXY. */
export function trustedPeer(
  trust: false | number | string[],
  address: string | undefined,
): boolean {
  if (trust === false || !address) return false
  if (typeof trust === 'number') return trust > 0
  const peer = address.startsWith('::ffff:') ? address.slice(7) : address
  return trust.some((entry) => {
    const [base, bits] = entry.split('/')
    if (bits === undefined) return base === peer
    const [network, host] = [ipv4ToNumber(base!), ipv4ToNumber(peer)]
    if (network === undefined || host === undefined) return false
    const mask = Number(bits) === 0 ? 0 : (0xffffffff << (32 - Number(bits))) >>> 0
    return (network & mask) >>> 0 === (host & mask) >>> 0
  })
}

/**
 * The id of a request, on every log line and in the `x-request-id` answer header: the proxy's
 * `X-Request-Id` when a trusted proxy sent a valid one (so one id follows a request through the
 * proxy's logs and ours), otherwise a new UUID. Anyone else's header is ignored.
 */
export function requestIdGenerator(trust: false | number | string[]) {
  return (request: IncomingMessage): string => {
    const sent = request.headers['x-request-id']
    if (
      typeof sent === 'string' &&
      VALID.test(sent) &&
      trustedPeer(trust, request.socket?.remoteAddress)
    )
      return sent
    return randomUUID()
  }
}
