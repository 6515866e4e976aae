import { BaseError, type BaseErrorParameters } from './base.ts'

// Errors of the JSON-RPC path to blockchain nodes (docs/errors.md). The short
// messages are the spec's wording; code branches on `name`.

/** The node gave no answer: network failure, refused or reset connection, or time-out. */
export class NoResponseError extends BaseError {
  override name = 'NoResponseError' as const
  constructor(parameters: BaseErrorParameters = {}) {
    super('No response', parameters)
  }
}
export type NoResponseErrorType = NoResponseError & { name: 'NoResponseError' }

/** The node answered with an HTTP error status (after any throttle retries). */
export class ErrorResponseError extends BaseError {
  override name = 'ErrorResponseError' as const
  readonly status: number
  readonly statusText: string
  /** The answer's headers (e.g. `Retry-After`). */
  readonly headers: Headers | undefined
  constructor({
    status,
    statusText,
    headers,
    ...parameters
  }: { status: number; statusText: string; headers?: Headers } & BaseErrorParameters) {
    super(`Error response [${status}] ${statusText}`.trimEnd(), parameters)
    this.status = status
    this.statusText = statusText
    this.headers = headers
  }
}
export type ErrorResponseErrorType = ErrorResponseError & { name: 'ErrorResponseError' }

/** The answer is not a JSON-RPC 2.0 object with the request's id and exactly one of result/error. */
export class UnexpectedRpcResponseError extends BaseError {
  override name = 'UnexpectedRpcResponseError' as const
  constructor(parameters: BaseErrorParameters = {}) {
    super('Received unexpected JSON-RPC response', parameters)
  }
}
export type UnexpectedRpcResponseErrorType = UnexpectedRpcResponseError & {
  name: 'UnexpectedRpcResponseError'
}

/** `connectNode` got neither `urls` nor `speedyNodeApiKey`. */
export class NodeConfigMissingError extends BaseError {
  override name = 'NodeConfigMissingError' as const
  constructor() {
    super('Cannot connect to rpc: No urls or speedyNodeApiKey provided')
  }
}
export type NodeConfigMissingErrorType = NodeConfigMissingError & { name: 'NodeConfigMissingError' }

/** No node URL (and no gateway key) for the requested chain. */
export class ChainUrlMissingError extends BaseError {
  override name = 'ChainUrlMissingError' as const
  readonly chainId: number
  constructor({ chainId }: { chainId: number }) {
    super(`No rpc url provided for chainId ${chainId}`)
    this.chainId = chainId
  }
}
export type ChainUrlMissingErrorType = ChainUrlMissingError & { name: 'ChainUrlMissingError' }

/** The errors after which the next node URL is tried: the node itself failed, not the request. */
export type NodeTransportError = NoResponseError | ErrorResponseError | UnexpectedRpcResponseError

/** True for the errors that mean "this node failed", as opposed to a JSON-RPC application error. */
export function isNodeTransportError(error: unknown): error is NodeTransportError {
  return (
    error instanceof NoResponseError ||
    error instanceof ErrorResponseError ||
    error instanceof UnexpectedRpcResponseError
  )
}
