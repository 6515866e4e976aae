import { getAddress, isAddress, type Address } from 'viem'
import { parseSiweMessage } from 'viem/siwe'
import type { AppConfig } from '../app-config.ts'
import { HttpError } from '../errors.ts'

/** The fields of a sign-in message that passed every check except nonce and signature. */
export interface CheckedSignInMessage {
  address: Address
  chainId: number
  nonce: string
  issuedAt: Date
  expirationTime: Date
  /** The configured origin the message named. */
  origin: string
}

const malformed = (message: string) => new HttpError(400, 'siwe_malformed', message)
const refuse = (code: string, message: string) => new HttpError(401, code, message)

// Each labelled line as the signer saw it, so a date we cannot read is caught even when viem's
// parser would have dropped the line or turned it into an Invalid Date.
const dateLines = {
  issuedAt: 'Issued At',
  expirationTime: 'Expiration Time',
  notBefore: 'Not Before',
} as const
const rfc3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/

function readDate(message: string, label: string): Date | 'invalid' | undefined {
  const line = message.split('\n').find((l) => l.startsWith(`${label}:`))
  if (line === undefined) return undefined
  const raw = line.slice(label.length + 1).trim()
  if (!rfc3339.test(raw)) return 'invalid'
  const date = new Date(raw)
  return Number.isNaN(date.getTime()) ? 'invalid' : date
}

/**
 * Checks an EIP-4361 message against this server's rules, each failure its own code:
 * format, domain and URI (the configured origins, never the Host header), chain, app id (Request
 * ID), dates (unreadable → refused, issuedAt fresh, expiration present and bounded, notBefore).
 * Nonce and signature are checked afterwards by the caller.
 */
export function checkSignInMessage(
  message: string,
  app: AppConfig,
  now = new Date(),
): CheckedSignInMessage {
  const fields = parseSiweMessage(message)
  if (!fields.domain || !fields.address || !fields.uri || !fields.nonce || !fields.chainId) {
    throw malformed(
      'The sign-in message is not an EIP-4361 message (domain, address, URI, chain, nonce).',
    )
  }
  if (fields.version !== '1') throw malformed('The sign-in message must have Version: 1.')
  if (!isAddress(fields.address, { strict: false })) {
    throw malformed('The sign-in message does not contain a valid address.')
  }

  const dates: Partial<Record<keyof typeof dateLines, Date>> = {}
  for (const [key, label] of Object.entries(dateLines) as [keyof typeof dateLines, string][]) {
    const value = readDate(message, label)
    if (value === 'invalid') {
      throw new HttpError(400, 'siwe_date_invalid', `"${label}" is not an RFC 3339 date-time.`)
    }
    if (value) dates[key] = value
  }
  if (!dates.issuedAt) throw malformed('The sign-in message has no "Issued At" date.')

  const origin = app.publicOrigins.find((candidate) => {
    const url = new URL(candidate)
    return url.host === fields.domain && (!fields.scheme || `${fields.scheme}:` === url.protocol)
  })
  if (!origin) {
    throw refuse(
      'siwe_domain_mismatch',
      `The message is for "${fields.domain}", but this app signs in at ${app.publicOrigins.join(', ')}.`,
    )
  }
  if (!sameOrigin(fields.uri, origin)) {
    throw refuse('siwe_uri_mismatch', `The message URI must be on ${origin}.`)
  }
  if (!app.allowedChainIds.includes(fields.chainId)) {
    throw refuse(
      'siwe_chain_not_allowed',
      `Chain ${fields.chainId} is not allowed here (allowed: ${app.allowedChainIds.join(', ')}).`,
    )
  }
  if (fields.requestId !== app.appId) {
    throw refuse(
      'siwe_app_mismatch',
      `The message is not for this app (Request ID must be "${app.appId}").`,
    )
  }

  const t = now.getTime()
  const skew = app.clockSkewMs
  const issuedAt = dates.issuedAt.getTime()
  if (issuedAt > t + skew || issuedAt < t - app.nonceTtlMs - skew) {
    throw refuse(
      'siwe_issued_at_not_fresh',
      'The message was not issued just now: fetch a new nonce and sign again.',
    )
  }
  if (!dates.expirationTime) {
    throw refuse('siwe_expiration_missing', 'The message must have an Expiration Time.')
  }
  if (dates.expirationTime.getTime() <= t) {
    throw refuse('siwe_expired', 'The message has expired: sign in again.')
  }
  if (dates.expirationTime.getTime() > t + app.signInMaxLifetimeMs + skew) {
    throw refuse(
      'siwe_expiration_too_far',
      `The message's Expiration Time may be at most ${Math.round(app.signInMaxLifetimeMs / 60_000)} minutes ahead.`,
    )
  }
  if (dates.notBefore && dates.notBefore.getTime() > t + skew) {
    throw refuse(
      'siwe_not_yet_valid',
      'The message is not valid yet (Not Before is in the future).',
    )
  }

  return {
    address: getAddress(fields.address),
    chainId: fields.chainId,
    nonce: fields.nonce,
    issuedAt: dates.issuedAt,
    expirationTime: dates.expirationTime,
    origin,
  }
}

function sameOrigin(uri: string, origin: string): boolean {
  try {
    return new URL(uri).origin === origin
  } catch {
    return false
  }
}
