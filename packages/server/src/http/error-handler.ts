import type { FastifyError, FastifyInstance } from 'fastify'
import type { ErrorCode } from '@portico/sdk/wire'
import { HttpError, RateLimited } from '../errors.ts'

/**
 * Maps every error to the `{ error: { code, message } }` shape. Client mistakes keep their 4xx
 * status and a message that says what to fix; anything unexpected is logged and answered as a
 * bare 500, never with a stack trace.
 */
export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof HttpError) {
      if (error instanceof RateLimited) reply.header('retry-after', String(error.retryAfter))
      return reply.status(error.statusCode).send({
        error: {
          code: error.code,
          message: error.message,
          ...(error.details ? { details: error.details } : {}),
        },
      })
    }
    if (error.validation) {
      return reply.status(400).send({
        error: { code: 'invalid_request', message: `Invalid request: ${error.message}.` },
      })
    }
    if (isDataException(error)) {
      return reply.status(400).send({
        error: {
          code: 'invalid_value',
          message: 'The request contains a value that cannot be stored (e.g. a NUL character).',
        },
      })
    }
    const status = error.statusCode ?? 500
    if (status >= 400 && status < 500) {
      return reply.status(status).send({
        error: { code: clientErrorCode(error), message: clientErrorMessage(error) },
      })
    }
    request.log.error({ err: error }, 'unhandled error')
    return reply.status(500).send({
      error: { code: 'internal', message: 'Something went wrong on the server. Try again later.' },
    })
  })
}

function clientErrorCode(error: FastifyError): ErrorCode {
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return 'body_too_large'
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return 'unsupported_media_type'
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return 'invalid_json'
    case 'FST_ERR_RATE_LIMIT_EXCEEDED':
      return 'rate_limited'
    default:
      return error.statusCode === 429 ? 'rate_limited' : 'bad_request'
  }
}

function clientErrorMessage(error: FastifyError): string {
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return 'The request body is too large.'
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return 'Unsupported Content-Type for this endpoint.'
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return 'The JSON body is empty. Send a JSON object.'
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return 'The body is not valid JSON.'
    default:
      return error.message
  }
}

/**
 * PostgreSQL "data exception" errors (SQLSTATE class 22: NUL bytes in text, invalid encodings,
 * out-of-range numbers) are caused by the values a client sent, not by the server: 400, not 500.
 * Drivers and Drizzle wrap them, so the cause chain is searched.
 */
export function isDataException(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    const code = (current as { code?: unknown }).code
    if (typeof code === 'string' && /^22[0-9A-Z]{3}$/.test(code)) return true
    current = (current as { cause?: unknown }).cause
  }
  return false
}
