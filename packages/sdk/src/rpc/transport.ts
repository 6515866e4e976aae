import {
  fallback,
  http,
  HttpRequestError,
  ResponseBodyTooLargeError,
  TimeoutError,
  type HttpTransportConfig,
  type Transport,
} from 'viem'
import {
  isNodeTransportError,
  NoResponseError,
  UnexpectedRpcResponseError,
  type NodeTransportError,
} from '../errors/rpc.ts'
import { walk } from '../errors/base.ts'
import { createNodeFetch, type FetchFn } from './fetch.ts'

export interface NodeTransportOptions {
  /** Web request time-out per attempt on one URL (ms). */
  timeout: number
  /** Retries of an HTTP 429 answer on one URL before moving on. */
  throttleRetryCount: number
  /** Base backoff between throttle retries without `Retry-After` (ms). */
  throttleRetryDelay: number
  /** Extra request headers (the gateway's API key). */
  headers?: Record<string, string> | undefined
  fetch?: FetchFn | undefined
  /** viem's JSON-RPC batching, off by default. */
  batch?: HttpTransportConfig['batch']
}

/**
 * Maps what viem throws when a node itself failed to the catalogue error,
 * keeping viem's error as `cause`. Returns undefined for JSON-RPC application errors, which
 * must reach the caller as viem's typed errors and must not trigger failover.
 */
export function toNodeTransportError(error: unknown): NodeTransportError | undefined {
  const known = walk(error, isNodeTransportError) as NodeTransportError | null
  if (known) return known
  const has = (type: abstract new (...args: never[]) => Error) =>
    walk(error, (e) => e instanceof type) !== null
  if (has(TimeoutError)) {
    return new NoResponseError({ cause: error, details: 'The request timed out.' })
  }
  if (has(ResponseBodyTooLargeError)) return new UnexpectedRpcResponseError({ cause: error })
  if (has(HttpRequestError)) return new NoResponseError({ cause: error })
  return undefined
}

/**
 * A viem transport over one or several node URLs of one chain: viem `http` per URL (strict answer
 * checks and 429 handling in its fetch), viem `fallback` across them in order. A URL is left for
 * the next one only when the node failed (no response, error status, wrong shape), never on a
 * JSON-RPC error object such as a revert.
 */
export function nodeTransport(urls: readonly string[], options: NodeTransportOptions): Transport {
  const fetchFn = createNodeFetch({
    fetch: options.fetch,
    throttleRetryCount: options.throttleRetryCount,
    throttleRetryDelay: options.throttleRetryDelay,
  })
  const transports = urls.map((url) =>
    http(url, {
      timeout: options.timeout,
      retryCount: 0,
      fetchFn,
      batch: options.batch,
      ...(options.headers ? { fetchOptions: { headers: options.headers } } : {}),
    }),
  )
  const inner = fallback(transports, {
    retryCount: 0,
    shouldThrow: (error) => toNodeTransportError(error) === undefined,
  })
  return (parameters) => {
    const transport = inner(parameters)
    const request: typeof transport.request = async (args, requestOptions) => {
      try {
        return await transport.request(args, requestOptions)
      } catch (error) {
        // viem's fallback wraps errors that are not its own in UnknownRpcError; unwrap ours.
        throw toNodeTransportError(error) ?? error
      }
    }
    return { ...transport, request }
  }
}
