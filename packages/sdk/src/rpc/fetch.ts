import { withRetry } from 'viem'
import { ErrorResponseError, NoResponseError } from '../errors/rpc.ts'
import { validateRpcAnswer, type JsonRpcRequest } from './validate.ts'

export type FetchFn = (input: string | URL | Request, init?: RequestInit) => Promise<Response>

export interface NodeFetchOptions {
  /** The `fetch` to call; the global one by default. */
  fetch?: FetchFn | undefined
  /** How many times an HTTP 429 answer is retried before it counts as a failed node. */
  throttleRetryCount: number
  /** Base of the exponential backoff when a 429 has no usable `Retry-After` (ms). */
  throttleRetryDelay: number
  /** Upper bound of one backoff step without `Retry-After` (ms). */
  throttleMaxDelay?: number | undefined
}

/**
 * How long to wait after a 429: `Retry-After` in seconds or as an HTTP date when present,
 * otherwise exponential backoff. A date in the past means "now".
 */
export function throttleDelay(
  retryAfter: string | null,
  count: number,
  baseDelay: number,
  maxDelay: number,
): number {
  if (retryAfter !== null && retryAfter.trim() !== '') {
    const value = retryAfter.trim()
    if (/^\d+$/.test(value)) return Number(value) * 1000
    const date = Date.parse(value)
    if (!Number.isNaN(date)) return Math.max(0, date - Date.now())
  }
  return Math.min(baseDelay * 2 ** count, maxDelay)
}

function isAbort(error: unknown, signal: AbortSignal | null | undefined): boolean {
  return Boolean(signal?.aborted) || (error instanceof Error && error.name === 'AbortError')
}

/**
 * The `fetchFn` given to viem's `http` transport for one node URL. viem's own retry policy also
 * retries 5xx and network errors with long backoffs, which would delay failover by minutes, so
 * the http transports run with `retryCount: 0` and this function adds only what the design asks:
 * throttle retries on 429 honouring `Retry-After`, the catalogue errors for dead nodes and error
 * statuses, and strict JSON-RPC 2.0 answer checking. It runs inside viem's time-out, whose
 * abort signal it respects.
 */
export function createNodeFetch(options: NodeFetchOptions): FetchFn {
  const maxDelay = options.throttleMaxDelay ?? 30_000
  return async (input, init = {}) => {
    const doFetch = options.fetch ?? globalThis.fetch
    const request = JSON.parse(String(init.body)) as JsonRpcRequest | JsonRpcRequest[]
    const once = async (): Promise<{ response: Response; text: string }> => {
      let response: Response
      let text: string
      try {
        response = await doFetch(input, init)
        text = await response.text()
      } catch (cause) {
        if (isAbort(cause, init.signal)) throw cause
        throw new NoResponseError({ cause })
      }
      if (!response.ok) {
        throw new ErrorResponseError({
          status: response.status,
          statusText: response.statusText,
          details: text.slice(0, 500) || undefined,
          headers: response.headers,
        })
      }
      return { response, text }
    }
    const { response, text } = await withRetry(once, {
      retryCount: options.throttleRetryCount,
      signal: init.signal ?? undefined,
      shouldRetry: ({ error }) => error instanceof ErrorResponseError && error.status === 429,
      delay: ({ count, error }) =>
        throttleDelay(
          error instanceof ErrorResponseError ? (error.headers?.get('retry-after') ?? null) : null,
          count,
          options.throttleRetryDelay,
          maxDelay,
        ),
    })
    validateRpcAnswer(request, text)
    return new Response(text, {
      status: response.status,
      statusText: response.statusText,
      headers: { 'content-type': 'application/json' },
    })
  }
}
