import { errorBodySchema, type ErrorCode } from '@portico/sdk/wire'

/**
 * The server's one way to refuse: domain code and routes alike throw an `HttpError` with a stable
 * `code` that clients branch on, the status it answers with, and a message that says what to do.
 * Domain functions never return refusals as values; the error handler (http/error-handler.ts) is
 * the only place that turns a refusal into an answer. Anything else thrown becomes a bare 500.
 */
export class HttpError extends Error {
  override name = 'HttpError'
  constructor(
    readonly statusCode: number,
    readonly code: ErrorCode,
    message: string,
    readonly details?: unknown,
  ) {
    super(message)
  }
}

/** 429: the caller is over a limit; `retryAfter` (seconds) is the answer's `retry-after` header. */
export class RateLimited extends HttpError {
  constructor(
    message: string,
    readonly retryAfter: number,
  ) {
    super(429, 'rate_limited', message)
  }
}

/**
 * A refusal or failure of the site's cloud code, with Parse's code (`Parse.Error`'s, 141 for
 * anything else): the compatibility mount answers that code, `/api` answers `cloud_code_error`.
 */
export function cloudCodeError(parseCode: number, message: string): HttpError {
  const status = parseCode === 100 ? 429 : parseCode === 101 ? 404 : 400
  return new HttpError(status, 'cloud_code_error', message, { parseCode })
}

export const badRequest = (message: string, code: ErrorCode = 'bad_request', details?: unknown) =>
  new HttpError(400, code, message, details)
export const unauthorized = (message = 'Sign in first.', code: ErrorCode = 'unauthorized') =>
  new HttpError(401, code, message)
export const forbidden = (
  message = 'You are not allowed to do this.',
  code: ErrorCode = 'forbidden',
) => new HttpError(403, code, message)
export const notFound = (message = 'Not found.', code: ErrorCode = 'not_found') =>
  new HttpError(404, code, message)

/** JSON shape of every error answer (its `code` one of the shared `ErrorCode`s). */
export { errorBodySchema }
