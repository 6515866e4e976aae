import { sdkVersion } from '../version/sdk-version.ts'

export interface BaseErrorParameters {
  /** The underlying error, kept whole so callers can `walk()` to it. */
  cause?: unknown
  /** Technical detail that helps a developer, not the user. */
  details?: string
  /** Extra lines shown under the short message. */
  metaMessages?: string[]
}

/**
 * The base of every Portico SDK error, shaped like viem's: a stable `name` that code branches on,
 * a `shortMessage` in the words of the error catalogue (design.md section 6) that the UI shows,
 * optional `details`, and the original `cause`.
 */
export class BaseError extends Error {
  override name = 'PorticoError'
  readonly shortMessage: string
  readonly details: string | undefined
  readonly metaMessages: string[] | undefined
  readonly version = `@portico/sdk@${sdkVersion}`

  constructor(shortMessage: string, parameters: BaseErrorParameters = {}) {
    const details =
      parameters.details ??
      (parameters.cause instanceof BaseError
        ? parameters.cause.details
        : parameters.cause instanceof Error
          ? parameters.cause.message
          : undefined)
    const message = [
      shortMessage,
      ...(parameters.metaMessages ? ['', ...parameters.metaMessages] : []),
      ...(details && details !== shortMessage ? ['', `Details: ${details}`] : []),
    ].join('\n')
    super(message, parameters.cause === undefined ? undefined : { cause: parameters.cause })
    this.shortMessage = shortMessage
    this.details = details
    this.metaMessages = parameters.metaMessages
  }

  /** Follows the `cause` chain; returns the first error `fn` accepts, or the innermost one. */
  walk(fn?: (error: unknown) => boolean): unknown {
    return walkCauses(this, fn)
  }
}

function walkCauses(error: unknown, fn?: (error: unknown) => boolean): unknown {
  if (fn?.(error)) return error
  const next = (error as { cause?: unknown } | null)?.cause
  if (next === undefined || next === null) return fn ? null : error
  return walkCauses(next, fn)
}
