// The gateway's upstream client written on undici's Pool instead of the hand-written HTTP/1
// client (packages/server/src/rpc/upstream-http.ts), for bench:rpc to compare the two in the same
// run: `rpc-undici-hook.mjs` has a server load this module in place of that one. It keeps what
// the hand-written client promises: one deadline for the whole exchange, bounded answers, and a
// kept-alive connection the node closed under a request retried once. It uses undici's lowest
// layer (`dispatch` with a handler): its `request()` API, with a stream per answer, cost about
// twice the CPU per exchange.
import { Pool, errors } from 'undici'

// Said once, so the bench's output shows the swap took place.
console.log("(this gateway forwards with undici's Pool)")

/** @typedef {import('../packages/server/src/rpc/upstream-http.ts').PostResult} PostResult */
/** @typedef {import('../packages/server/src/rpc/upstream-http.ts').UpstreamHttp} UpstreamHttp */

/**
 * @param {URL} url
 * @param {number} maxAnswerBytes
 * @returns {UpstreamHttp}
 */
export const upstreamHttp = (url, maxAnswerBytes) => new UndiciUpstream(url, maxAnswerBytes)

/** @implements {UpstreamHttp} */
class UndiciUpstream {
  #pool
  #path
  /** @type {Record<string, string>} */
  #headers
  /** Exchanges that got an answer: after one, a connection closed under a request was reused. */
  #served = 0

  /**
   * @param {URL} url
   * @param {number} maxAnswerBytes
   */
  constructor(url, maxAnswerBytes) {
    this.#pool = new Pool(url.origin, {
      connections: 256,
      // Idle connections close after 4 s, as the hand-written client's do.
      keepAliveTimeout: 4_000,
      keepAliveMaxTimeout: 4_000,
      maxResponseSize: maxAnswerBytes,
    })
    this.#path = `${url.pathname}${url.search}`
    this.#headers = { 'content-type': 'application/json' }
    if (url.username) {
      const credentials = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`
      this.#headers.authorization = `Basic ${Buffer.from(credentials).toString('base64')}`
    }
  }

  /**
   * @param {string} body
   * @param {number} timeoutMs
   * @returns {Promise<PostResult>}
   */
  async post(body, timeoutMs) {
    const deadline = Date.now() + timeoutMs
    const first = await this.#exchange(body, timeoutMs)
    if (!first.dropped || Date.now() >= deadline) return first.result
    return (await this.#exchange(body, deadline - Date.now())).result
  }

  /**
   * @param {string} body
   * @param {number} timeoutMs
   * @returns {Promise<{ result: PostResult, dropped: boolean }>}
   */
  #exchange(body, timeoutMs) {
    return new Promise((resolve) => {
      /** @type {import('undici').Dispatcher.DispatchController | undefined} */
      let controller
      let answered = false
      let settled = false
      let status = 0
      /** @type {string | undefined} */
      let retryAfter
      /** @type {Buffer[]} */
      const chunks = []
      /** @param {PostResult} result @param {boolean} [dropped] */
      const settle = (result, dropped = false) => {
        if (settled) return
        settled = true
        clearTimeout(timer)
        if (result.ok) this.#served++
        resolve({ result, dropped })
      }
      // One deadline for the whole exchange, waiting for a connection included.
      const timer = setTimeout(() => {
        controller?.abort(new errors.RequestAbortedError('deadline'))
        settle({ ok: false, reason: 'no-response' })
      }, timeoutMs)
      this.#pool.dispatch(
        { path: this.#path, method: 'POST', headers: this.#headers, body },
        {
          onRequestStart: (started) => {
            controller = started
            if (settled) started.abort(new errors.RequestAbortedError('deadline'))
          },
          onResponseStart: (_controller, statusCode, headers) => {
            answered = true
            if (statusCode < 200) return // an interim answer: the real one follows
            status = statusCode
            const value = headers['retry-after']
            retryAfter = Array.isArray(value) ? value[0] : value
          },
          onResponseData: (_controller, chunk) => {
            chunks.push(chunk)
          },
          onResponseEnd: () => {
            const answer =
              chunks.length === 1 ? /** @type {Buffer} */ (chunks[0]) : Buffer.concat(chunks)
            settle({
              ok: true,
              status,
              ...(retryAfter === undefined ? {} : { retryAfter }),
              body: answer,
              keepAlive: true,
            })
          },
          onResponseError: (_controller, error) => {
            settle(failure(error), !answered && this.#served > 0 && closedUnder(error))
          },
        },
      )
    })
  }

  close() {
    // Exchanges under way fail at once, each reported where it was asked; the pool's own
    // closing has nothing left to report.
    this.#pool.destroy().catch(() => {})
  }
}

/**
 * @param {Error} error
 * @returns {PostResult}
 */
function failure(error) {
  if (error instanceof errors.ResponseExceededMaxSizeError)
    return { ok: false, reason: 'too-large' }
  if (
    error instanceof errors.HTTPParserError ||
    error instanceof errors.ResponseContentLengthMismatchError ||
    (error instanceof errors.SocketError && error.message === 'bad response')
  )
    return { ok: false, reason: 'malformed' }
  return { ok: false, reason: 'no-response' }
}

/**
 * Whether the node closed (or reset) a connection that had carried earlier exchanges under the
 * request, as a node does whose keep-alive time-out ends as a request arrives.
 * @param {Error} error
 */
function closedUnder(error) {
  if (error instanceof errors.SocketError)
    return error.message !== 'bad response' && (error.socket?.bytesRead ?? 0) > 0
  const code = /** @type {NodeJS.ErrnoException} */ (error).code
  return code === 'ECONNRESET' || code === 'EPIPE'
}
