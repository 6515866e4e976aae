import { errorCodes, type ErrorCode } from '../wire/error-codes.ts'
import { BaseError, type BaseErrorParameters } from './base.ts'

// Errors of the backend client. Code branches on `name` and `code`.

/**
 * Why a backend call failed: one of the server's codes (shared with the server, see
 * `@portico/sdk/wire`), or the client's own: no answer, an answer that is not JSON, an error
 * status without a code (`http_<status>`), or a batch that failed or was not sent.
 */
export type BackendErrorCode =
  | ErrorCode
  | 'no_response'
  | 'invalid_response'
  | 'missing_result'
  | 'batch_failed'
  | 'not_sent'
  | `http_${number}`

const known = new Set<unknown>(errorCodes)

/**
 * The code of an error answer: the server's when it is one this SDK knows, else `http_<status>`
 * (a newer server's code is kept in the error's details).
 */
export function answerCode(code: unknown, status: number): BackendErrorCode {
  return known.has(code) ? (code as ErrorCode) : `http_${status}`
}

export interface BackendErrorParameters extends BaseErrorParameters {
  /** HTTP status of the last answer; `undefined` when the server never answered. */
  status?: number | undefined
  /** The server's stable error code (`{ error: { code } }`), or one of the client's own codes. */
  code: BackendErrorCode
  /** The server's message, shown as `shortMessage`. */
  message?: string | undefined
  method: string
  path: string
  /** How many attempts were made before giving up. */
  attempts: number
}

/**
 * A backend request failed: the server answered with an error status (4xx at once, 5xx after
 * the last attempt), or never answered (`code: 'no_response'`, `status: undefined`, the network
 * error kept as `cause`), or answered something that is not JSON (`code: 'invalid_response'`).
 */
export class BackendError extends BaseError {
  override name = 'BackendError' as const
  readonly status: number | undefined
  readonly code: BackendErrorCode
  readonly method: string
  readonly path: string
  readonly attempts: number
  constructor({ status, code, message, method, path, attempts, ...rest }: BackendErrorParameters) {
    const shortMessage =
      message ??
      (status === undefined ? 'No response from the server' : `Error response [${status}]`)
    super(shortMessage, {
      ...rest,
      metaMessages: [
        `Request: ${method} ${path}`,
        `Attempts: ${attempts}`,
        ...(status === undefined ? [] : [`Status: ${status} (${code})`]),
        ...(rest.metaMessages ?? []),
      ],
    })
    this.status = status
    this.code = code
    this.method = method
    this.path = path
    this.attempts = attempts
  }
}
export type BackendErrorType = BackendError & { name: 'BackendError' }

/** `encode()` met a file that has not been saved yet (it has no URL to point to). */
export class UnsavedFileError extends BaseError {
  override name = 'UnsavedFileError' as const
  constructor(parameters: { name?: string } = {}) {
    super('Tried to encode an unsaved file', {
      details: parameters.name
        ? `File "${parameters.name}" has no URL yet: save it first.`
        : undefined,
    })
  }
}
export type UnsavedFileErrorType = UnsavedFileError & { name: 'UnsavedFileError' }

/** `encode()` met a `Date` whose time is NaN. */
export class InvalidDateError extends BaseError {
  override name = 'InvalidDateError' as const
  constructor() {
    super('Tried to encode an invalid date')
  }
}
export type InvalidDateErrorType = InvalidDateError & { name: 'InvalidDateError' }

/** A value read from the server is not a valid wire form (e.g. a Date with an unparseable `iso`). */
export class InvalidWireValueError extends BaseError {
  override name = 'InvalidWireValueError' as const
  constructor({ details }: { details: string }) {
    super('Received an invalid value from the server', { details })
  }
}
export type InvalidWireValueErrorType = InvalidWireValueError & { name: 'InvalidWireValueError' }

/**
 * Some operations of `saveAll`/`destroyAll` failed. `results` lines up with the input: each
 * entry is the operation's result or its `BackendError`. Batches after a failed one still ran.
 */
export class BatchError<T = unknown> extends BaseError {
  override name = 'BatchError' as const
  readonly results: (T | BackendError)[]
  constructor({ results }: { results: (T | BackendError)[] }) {
    const failures = results.filter((r): r is BackendError => r instanceof BackendError)
    super(`${failures.length} of ${results.length} operations failed`, {
      cause: failures[0],
      metaMessages: failures.slice(0, 5).map((f) => `${f.method} ${f.path}: ${f.shortMessage}`),
    })
    this.results = results
  }

  /** The operations that succeeded, with their position in the input. */
  get succeeded(): { index: number; value: T }[] {
    return this.results.flatMap((value, index) =>
      value instanceof BackendError ? [] : [{ index, value: value as T }],
    )
  }

  /** The operations that failed, with their position in the input and why. */
  get failed(): { index: number; error: BackendError }[] {
    return this.results.flatMap((error, index) =>
      error instanceof BackendError ? [{ index, error }] : [],
    )
  }
}
