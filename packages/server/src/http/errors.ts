/**
 * The one error type of the HTTP layer: a stable `code` that clients branch on, the HTTP status,
 * and a message that says what to do. Anything else thrown in a route becomes a 500 without details.
 */
export class HttpError extends Error {
  override name = 'HttpError'
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message)
  }
}

export const badRequest = (message: string, code = 'bad_request', details?: unknown) =>
  new HttpError(400, code, message, details)
export const unauthorized = (message = 'Sign in first.', code = 'unauthorized') =>
  new HttpError(401, code, message)
export const forbidden = (message = 'You are not allowed to do this.', code = 'forbidden') =>
  new HttpError(403, code, message)
export const notFound = (message = 'Not found.', code = 'not_found') =>
  new HttpError(404, code, message)

/** JSON shape of every error answer. */
export const errorBodySchema = {
  type: 'object',
  properties: {
    error: {
      type: 'object',
      properties: {
        code: { type: 'string' },
        message: { type: 'string' },
        details: {},
      },
      required: ['code', 'message'],
    },
  },
  required: ['error'],
} as const
