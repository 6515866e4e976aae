import { sdkVersion } from '../sdk-version.ts'

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
 * a `shortMessage` in the words of the error catalogue (docs/errors.md) that the UI shows,
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
    return walk(this, fn)
  }
}

/** The longest cause chain followed; a longer (or circular) chain stops there. */
const MAX_DEPTH = 32

/**
 * Follows `error`'s `cause` chain (any error, not only the SDK's): returns the first error `fn`
 * accepts (null when none does), or without `fn` the innermost cause.
 */
export function walk(error: unknown, fn?: (error: unknown) => boolean): unknown {
  let current = error
  for (let depth = 0; depth < MAX_DEPTH; depth++) {
    if (fn?.(current)) return current
    const next = (current as { cause?: unknown } | null | undefined)?.cause
    if (next === undefined || next === null) return fn ? null : current
    current = next
  }
  return fn ? null : current
}
