import { getAddress, type Address } from 'viem'
import { ParsedMessage } from '@spruceid/siwe-parser'
import type { AppConfig } from '../config/app.ts'
import type { ErrorCode } from '@portico/sdk/wire'
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
const refuse = (code: ErrorCode, message: string) => new HttpError(401, code, message)

const dateLabels = {
  'issued-at': 'Issued At',
  'expiration-time': 'Expiration Time',
  'not-before': 'Not Before',
} as const

/** The reference parser's complaint, as the refusal a client can act on. */
function parseRefusal(complaint: string): HttpError {
  const date = /invalid (issued-at|expiration-time|not-before) date time/.exec(complaint)
  if (date) {
    const label = dateLabels[date[1] as keyof typeof dateLabels]
    return new HttpError(400, 'siwe_date_invalid', `"${label}" is not an RFC 3339 date-time.`)
  }
  if (/invalid EIP-55 address/.test(complaint)) {
    return new HttpError(
      400,
      'siwe_address_not_checksummed',
      'The address in the sign-in message must be written with its EIP-55 checksum (as getAddress() returns it).',
    )
  }
  if (/invalid resource/.test(complaint)) {
    return new HttpError(400, 'siwe_resource_invalid', 'Every Resources entry must be a URI.')
  }
  const line = /line (?:number was )?(\d+)/.exec(complaint)?.[1]
  return malformed(
    `The sign-in message does not follow the EIP-4361 format${line ? ` (line ${line})` : ''}: build it with the SDK, viem's createSiweMessage or the siwe package.`,
  )
}

/** RFC 3339 text the parser has already checked, as a Date. */
const dateOf = (text: string | undefined) => (text === undefined ? undefined : new Date(text))

/**
 * Checks an EIP-4361 message against this server's rules, each failure its own code:
 * the reference grammar (strict: one canonical form, every field read only from its own line, an
 * EIP-55 address, URIs as resources), domain and URI (the configured origins, never the Host
 * header), chain, app id (Request ID), dates (issuedAt fresh, expiration present and bounded,
 * notBefore). Nonce and signature are checked afterwards by the caller.
 *
 * Wallets show a sign-in request (and warn about a wrong domain) only for messages the strict
 * grammar accepts, so a lenient server would honour messages the wallet never checked.
 */
export function checkSignInMessage(
  message: string,
  app: AppConfig,
  now = new Date(),
): CheckedSignInMessage {
  let fields: ParsedMessage
  try {
    fields = new ParsedMessage(message)
  } catch (error) {
    throw parseRefusal(error instanceof Error ? error.message : String(error))
  }
  if (fields.version !== '1') throw malformed('The sign-in message must have Version: 1.')
  const dates = {
    issuedAt: dateOf(fields.issuedAt)!,
    expirationTime: dateOf(fields.expirationTime),
    notBefore: dateOf(fields.notBefore),
  }

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
