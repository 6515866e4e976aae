import type { FastifyError } from 'fastify'
import type { ErrorCode } from '@portico/sdk/wire'
import { HttpError } from '../errors.ts'
import { isDataException } from '../http/error-handler.ts'
import { GeoValueError } from '../objects/geo-condition.ts'

// Errors as the Moralis v1 / Parse clients read them: `{ code, error }` with Parse's numeric
// codes. Statuses follow Parse Server (101 → 404, rate limit → 429, everything else a client
// did → 400): the clients re-send a request five times on any 5xx, so a 5xx is only ever a real
// server failure.

export const ParseCode = {
  INTERNAL_SERVER_ERROR: 1,
  CONNECTION_FAILED: 100,
  OBJECT_NOT_FOUND: 101,
  INVALID_QUERY: 102,
  INVALID_CLASS_NAME: 103,
  INVALID_KEY_NAME: 105,
  INVALID_JSON: 107,
  INCORRECT_TYPE: 111,
  OPERATION_FORBIDDEN: 119,
  INVALID_ACL: 123,
  FILE_SAVE_ERROR: 130,
  FILE_DELETE_ERROR: 153,
  SCRIPT_FAILED: 141,
  VALIDATION_ERROR: 142,
  DUPLICATE_REQUEST: 159,
  MISSING_OBJECT_ID: 104,
  DUPLICATE_VALUE: 137,
  REQUEST_LIMIT_EXCEEDED: 155,
  SESSION_MISSING: 206,
  ACCOUNT_ALREADY_LINKED: 208,
  INVALID_SESSION_TOKEN: 209,
  UNSUPPORTED_SERVICE: 252,
  CLASS_NOT_EMPTY: 255,
} as const

export class ParseError extends Error {
  override name = 'ParseError'
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message)
  }
}

/** Parse's code for each of Portico's refusals (those not listed answer 141 or 119 by status). */
const CODES: Partial<Record<ErrorCode, number>> = {
  not_found: ParseCode.OBJECT_NOT_FOUND,
  forbidden: ParseCode.OBJECT_NOT_FOUND,
  invalid_json: ParseCode.INVALID_JSON,
  json_too_deep: ParseCode.INVALID_JSON,
  invalid_request: ParseCode.INVALID_JSON,
  bad_request: ParseCode.INVALID_JSON,
  invalid_value: ParseCode.INCORRECT_TYPE,
  invalid_class_name: ParseCode.INVALID_CLASS_NAME,
  invalid_field_name: ParseCode.INVALID_KEY_NAME,
  invalid_acl: ParseCode.INVALID_ACL,
  invalid_query: ParseCode.INVALID_QUERY,
  limit_too_large: ParseCode.INVALID_QUERY,
  answer_too_large: ParseCode.INVALID_QUERY,
  unauthorized: ParseCode.INVALID_SESSION_TOKEN,
  rate_limited: ParseCode.CONNECTION_FAILED,
  body_too_large: ParseCode.REQUEST_LIMIT_EXCEEDED,
  empty_file: ParseCode.FILE_SAVE_ERROR,
  unsupported_file_type: ParseCode.FILE_SAVE_ERROR,
  signature_invalid: ParseCode.OBJECT_NOT_FOUND,
  signature_unverifiable: ParseCode.CONNECTION_FAILED,
  address_taken: ParseCode.ACCOUNT_ALREADY_LINKED,
  address_not_linked: ParseCode.OBJECT_NOT_FOUND,
  class_requires_sign_in: ParseCode.OBJECT_NOT_FOUND,
  invalid_class_permissions: ParseCode.INVALID_JSON,
  object_id_taken: ParseCode.DUPLICATE_VALUE,
}

/** Status of an answer with this Parse code. */
export function parseStatus(code: number): number {
  if (code === ParseCode.OBJECT_NOT_FOUND) return 404
  if (code === ParseCode.CONNECTION_FAILED) return 429
  if (code === ParseCode.INTERNAL_SERVER_ERROR) return 500
  return 400
}

/** Any error thrown while serving the mount → the Parse code and message a client gets. */
export function toParseError(error: unknown): ParseError | undefined {
  if (error instanceof ParseError) return error
  if (error instanceof GeoValueError) return new ParseError(ParseCode.INVALID_JSON, error.message)
  if (error instanceof HttpError) {
    if (error.code === 'cloud_code_error')
      return new ParseError((error.details as { parseCode: number }).parseCode, error.message)
    if (error.code.startsWith('siwe_') || error.code.startsWith('nonce_'))
      return new ParseError(ParseCode.OBJECT_NOT_FOUND, error.message)
    const code = CODES[error.code] ?? ParseCode.OPERATION_FORBIDDEN
    if (error.statusCode === 503) return new ParseError(ParseCode.CONNECTION_FAILED, error.message)
    return new ParseError(code, error.message)
  }
  const fastify = error as FastifyError
  if (fastify.validation)
    return new ParseError(ParseCode.INVALID_JSON, `Invalid request: ${fastify.message}.`)
  if (fastify.statusCode === 429 || fastify.code === 'FST_ERR_RATE_LIMIT_EXCEEDED')
    return new ParseError(
      ParseCode.CONNECTION_FAILED,
      'Too many requests: slow down and try again in a minute.',
    )
  if (fastify.code === 'FST_ERR_CTP_BODY_TOO_LARGE')
    return new ParseError(ParseCode.REQUEST_LIMIT_EXCEEDED, 'The request body is too large.')
  if (
    typeof fastify.statusCode === 'number' &&
    fastify.statusCode >= 400 &&
    fastify.statusCode < 500
  )
    return new ParseError(ParseCode.INVALID_JSON, fastify.message)
  if (isDataException(error))
    return new ParseError(
      ParseCode.INCORRECT_TYPE,
      'The request contains a value that cannot be stored or compared (e.g. an invalid $regex).',
    )
  return undefined
}
