import { answerCode, BackendError } from '../errors/backend.ts'
import { checkUrl } from '../errors/config.ts'
import { sdkVersion } from '../sdk-version.ts'
import {
  createLiveConnection,
  type LiveConnection,
  type WebSocketClass,
} from './live-connection.ts'
import { backoffDelay, newIdempotencyKey } from './retry.ts'

export type BackendFetch = (input: string, init: RequestInit) => Promise<Response>

export interface BackendClientConfig {
  /** Origin (optionally with a base path) of the Portico server, e.g. `https://app.example`. */
  serverUrl: string
  /** The application id; it is also the `requestId` of sign-in messages. */
  appId: string
  /** The `fetch` to call; the global one by default. */
  fetch?: BackendFetch | undefined
  /** Bearer token (non-browser clients), or a function read on every request. */
  token?: string | (() => string | undefined) | undefined
  /** Attempts per request on network errors and 5xx (default 5). */
  attempts?: number | undefined
  /** Objects per `POST /api/batch` in `saveAll`/`destroyAll` (default 20). */
  batchSize?: number | undefined
  /** First backoff step in ms; doubles per attempt, jittered. */
  retryDelay?: number | undefined
  /** Upper bound of one backoff step in ms. */
  maxRetryDelay?: number | undefined
  /** Time-out of one attempt in ms; a time-out counts as a network error. */
  timeout?: number | undefined
  /** Injected for tests: how to wait between attempts. */
  sleep?: ((ms: number) => Promise<void>) | undefined
  /** Injected for tests: the jitter source, in [0, 1). */
  random?: (() => number) | undefined
  /** Injected for tests: how idempotency keys are made. */
  idempotencyKey?: (() => string) | undefined
  /**
   * The WebSocket class live queries use; the global one by default (browsers, Node 22+). On
   * Node 20 pass the `ws` package's: `import WebSocket from 'ws'`.
   */
  WebSocket?: WebSocketClass | undefined
}

// The socket's own module says what it needs of a WebSocket class.
export type { WebSocketClass } from './live-connection.ts'

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'

export interface RequestOptions {
  /** JSON-serialisable body, or raw bytes (`Blob`, `ArrayBuffer`, typed array) sent as they are. */
  body?: unknown
  /** Content type of a raw body (defaults to the Blob's own type). */
  contentType?: string | undefined
  /** Query string parameters; `undefined` values are left out. */
  query?: Record<string, string | number | boolean | undefined> | undefined
  /**
   * Idempotency of a write: by default every POST/PUT/PATCH/DELETE gets a fresh
   * `Idempotency-Key` reused across its attempts; a string uses that key; `false` sends none.
   */
  idempotent?: boolean | string | undefined
  /** Cancels the request and any further attempts. */
  signal?: AbortSignal | undefined
}

export interface BackendClient {
  readonly serverUrl: string
  readonly appId: string
  readonly attempts: number
  readonly batchSize: number
  /** Sends one request with the retry policy (5 attempts, jittered backoff, one Idempotency-Key per write); resolves to the parsed JSON (or `undefined` for 204). */
  request<T = unknown>(method: HttpMethod, path: string, options?: RequestOptions): Promise<T>
  /** Absolute URL of a server path (e.g. a file URL). */
  url(path: string): string
  /** Replaces the bearer token (e.g. after a bearer-mode sign-in); `undefined` removes it. */
  setToken(token: string | undefined): void
  /** The bearer token now, if any. */
  currentToken(): string | undefined
  /** The WebSocket class for live queries, if one is available. */
  readonly WebSocket: WebSocketClass | undefined
  /**
   * This client's live-query connection: one socket for every `subscribe`, opened by the first
   * and closed by the last.
   */
  readonly live: LiveConnection
  /** Ends this client's live queries and closes their socket. */
  close(): void
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

function isRawBody(body: unknown): body is Blob | ArrayBuffer | ArrayBufferView {
  return (
    (typeof Blob !== 'undefined' && body instanceof Blob) ||
    body instanceof ArrayBuffer ||
    ArrayBuffer.isView(body)
  )
}

async function readAnswer(response: Response): Promise<{ json: unknown; text: string }> {
  const text = await response.text()
  if (text === '') return { json: undefined, text }
  try {
    return { json: JSON.parse(text) as unknown, text }
  } catch {
    return { json: undefined, text }
  }
}

/**
 * Creates the client every backend call goes through. Each request makes up to `attempts`
 * attempts: network errors (and time-outs) and 5xx answers are retried with jittered
 * exponential backoff; 4xx answers are final. Writes carry one `Idempotency-Key` for all their
 * attempts, so the server applies a retried write once. Cookies travel (`credentials:
 * 'include'`) for browser sessions; a bearer token is sent when configured.
 *
 * @example
 * const client = createBackendClient({ serverUrl: 'http://127.0.0.1:3000', appId: 'portico' })
 * const { nonce } = await client.request<{ nonce: string }>('POST', '/api/auth/nonce', { body: {} })
 */
export function createBackendClient(config: BackendClientConfig): BackendClient {
  checkUrl('serverUrl', config.serverUrl, 'https://app.example')
  const serverUrl = config.serverUrl.replace(/\/+$/, '')
  const attempts = Math.max(1, config.attempts ?? 5)
  const sleep = config.sleep ?? defaultSleep
  const random = config.random ?? Math.random
  const timeout = config.timeout ?? 30_000
  let token = config.token

  const url = (path: string) => `${serverUrl}${path.startsWith('/') ? path : `/${path}`}`
  const currentToken = () => (typeof token === 'function' ? token() : token)

  async function request<T>(method: HttpMethod, path: string, options: RequestOptions = {}) {
    const doFetch = config.fetch ?? ((input, init) => globalThis.fetch(input, init))
    const search = new URLSearchParams()
    for (const [key, value] of Object.entries(options.query ?? {})) {
      if (value !== undefined) search.set(key, String(value))
    }
    const target = url(path) + (search.size > 0 ? `?${search.toString()}` : '')
    const headers: Record<string, string> = { 'x-portico-client': `sdk/${sdkVersion}` }
    let body: RequestInit['body']
    if (isRawBody(options.body)) {
      body = options.body as RequestInit['body']
      const type = options.contentType ?? (options.body instanceof Blob ? options.body.type : '')
      headers['content-type'] = type || 'application/octet-stream'
    } else if (options.body !== undefined) {
      body = JSON.stringify(options.body)
      headers['content-type'] = 'application/json'
    }
    const isWrite = method !== 'GET'
    const key =
      typeof options.idempotent === 'string'
        ? options.idempotent
        : isWrite && options.idempotent !== false
          ? (config.idempotencyKey ?? newIdempotencyKey)()
          : undefined
    if (key) headers['idempotency-key'] = key
    const bearer = currentToken()
    if (bearer) headers.authorization = `Bearer ${bearer}`

    const fail = (fields: Omit<ConstructorParameters<typeof BackendError>[0], 'method' | 'path'>) =>
      new BackendError({ method, path, ...fields })

    for (let attempt = 1; ; attempt++) {
      let response: Response
      let answer: { json: unknown; text: string }
      const signals = [AbortSignal.timeout(timeout), ...(options.signal ? [options.signal] : [])]
      try {
        response = await doFetch(target, {
          method,
          headers,
          body,
          credentials: 'include',
          signal: AbortSignal.any(signals),
        })
        answer = await readAnswer(response)
      } catch (cause) {
        // The caller cancelled: stop at once, no retry.
        if (options.signal?.aborted) throw cause
        if (attempt >= attempts) throw fail({ code: 'no_response', attempts: attempt, cause })
        await sleep(backoffDelay(attempt, random, config.retryDelay, config.maxRetryDelay))
        continue
      }
      if (response.ok) {
        if (answer.json === undefined && answer.text !== '') {
          throw fail({
            status: response.status,
            code: 'invalid_response',
            message: 'The server answered something that is not JSON',
            details: answer.text.slice(0, 200),
            attempts: attempt,
          })
        }
        return answer.json as T
      }
      const error = (answer.json as { error?: { code?: unknown; message?: unknown } } | undefined)
        ?.error
      const failure = fail({
        status: response.status,
        code: answerCode(error?.code, response.status),
        message: typeof error?.message === 'string' ? error.message : undefined,
        details: error
          ? answerCode(error.code, response.status) === error.code
            ? undefined
            : `server code: ${String(error.code).slice(0, 100)}`
          : answer.text.slice(0, 200) || response.statusText || undefined,
        attempts: attempt,
      })
      if (response.status < 500 || attempt >= attempts) throw failure
      await sleep(backoffDelay(attempt, random, config.retryDelay, config.maxRetryDelay))
    }
  }

  const WebSocket =
    config.WebSocket ??
    ((globalThis as { WebSocket?: WebSocketClass }).WebSocket as WebSocketClass | undefined)
  const live = createLiveConnection({
    url: url('/api/live').replace(/^http/, 'ws'),
    token: currentToken,
    WebSocket,
  })

  return {
    serverUrl,
    appId: config.appId,
    attempts,
    batchSize: Math.max(1, config.batchSize ?? 20),
    request,
    url,
    setToken(next) {
      token = next
    },
    currentToken,
    WebSocket,
    live,
    close: live.close,
  }
}
