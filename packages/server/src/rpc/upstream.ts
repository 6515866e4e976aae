import http from 'node:http'
import https from 'node:https'
import { readUpstreamAnswer, type JsonRpcAnswer } from './answer.ts'

/** A call as sent upstream: ids are the gateway's own 0..n-1, never the client's. */
export interface UpstreamCall {
  jsonrpc: '2.0'
  id: number
  method: string
  params?: unknown
}

/** A call to forward; the pool gives it an upstream id. */
export interface ForwardedCall {
  method: string
  params?: unknown
}

interface Queued {
  call: ForwardedCall
  resolve: (answer: JsonRpcAnswer) => void
  reject: (error: unknown) => void
}

/** Why every upstream failed; `throttled` when the last one answered 429. */
export class UpstreamUnavailableError extends Error {
  override name = 'UpstreamUnavailableError'
  constructor(
    readonly throttled: boolean,
    readonly retryAfter: string | undefined,
  ) {
    super('No upstream node answered')
  }
}

type Attempt =
  | { ok: true; answers: JsonRpcAnswer[] }
  | { ok: false; reason: 'no-response' | 'status' | 'shape'; status?: number; retryAfter?: string }

const maxAnswerBytes = 32 * 1024 * 1024

interface Upstream {
  url: URL
  agent: http.Agent
  request: typeof http.request
}

/** Reports a failed attempt by position and reason only: upstream URLs may embed provider keys. */
export type UpstreamFailureLog = (failure: {
  upstream: number
  reason: string
  status?: number
}) => void

/**
 * The upstream nodes of one chain, tried in order on transport errors, error statuses and wrong
 * shapes, never on a JSON-RPC error object (a revert is the answer, not a node failure).
 * Plain `node:http` with keep-alive: several times faster than `fetch` on this hot path.
 */
export class UpstreamPool {
  readonly #upstreams: Upstream[]
  #queue: Queued[] = []
  #flushScheduled = false

  /**
   * @param maxBatch calls that arrive in the same event-loop turn go upstream together as one
   * JSON-RPC batch of at most this many (1 = never batch), as ethers and viem batch clients do:
   * one HTTP exchange instead of many, for the gateway and for the node.
   */
  constructor(
    urls: readonly string[],
    readonly timeoutMs: number,
    private readonly onFailure: UpstreamFailureLog = () => {},
    readonly maxBatch = 1,
    /** Told the outcome (`ok` or the failure reason) and duration of every attempt. */
    private readonly onAttempt: (outcome: string, seconds: number) => void = () => {},
  ) {
    this.#upstreams = urls.map((raw) => {
      const url = new URL(raw)
      const secure = url.protocol === 'https:'
      const agent = secure
        ? new https.Agent({ keepAlive: true, maxSockets: 256 })
        : new http.Agent({ keepAlive: true, maxSockets: 256 })
      return { url, agent, request: secure ? https.request : http.request }
    })
  }

  /** Forwards one call, batched with the others of this event-loop turn; resolves with its answer. */
  request(call: ForwardedCall): Promise<JsonRpcAnswer> {
    return new Promise((resolve, reject) => {
      this.#queue.push({ call, resolve, reject })
      if (!this.#flushScheduled) {
        this.#flushScheduled = true
        setImmediate(() => this.#flush())
      }
    })
  }

  #flush(): void {
    this.#flushScheduled = false
    const queue = this.#queue
    this.#queue = []
    for (let start = 0; start < queue.length; start += this.maxBatch) {
      const chunk = queue.slice(start, start + this.maxBatch)
      const calls = chunk.map(({ call }, id): UpstreamCall => {
        const forwarded: UpstreamCall = { jsonrpc: '2.0', id, method: call.method }
        if (call.params !== undefined) forwarded.params = call.params
        return forwarded
      })
      this.send(calls, calls.length > 1).then(
        (answers) => chunk.forEach((queued, n) => queued.resolve(answers[n]!)),
        (error: unknown) => chunk.forEach((queued) => queued.reject(error)),
      )
    }
  }

  /** Sends the calls (one alone, or as a batch) and returns the answers in call order. */
  async send(calls: UpstreamCall[], batch: boolean): Promise<JsonRpcAnswer[]> {
    const body = JSON.stringify(batch ? calls : calls[0])
    let last: Attempt | undefined
    for (const [index, upstream] of this.#upstreams.entries()) {
      const started = performance.now()
      last = await this.#attempt(upstream, body, calls.length, batch)
      this.onAttempt(last.ok ? 'ok' : last.reason, (performance.now() - started) / 1000)
      if (last.ok) return last.answers
      this.onFailure({
        upstream: index + 1,
        reason: last.reason,
        ...(last.status ? { status: last.status } : {}),
      })
    }
    const failed = last?.ok === false ? last : undefined
    const throttled = failed?.status === 429
    throw new UpstreamUnavailableError(throttled, throttled ? failed?.retryAfter : undefined)
  }

  close(): void {
    for (const upstream of this.#upstreams) upstream.agent.destroy()
  }

  #attempt(upstream: Upstream, body: string, count: number, batch: boolean): Promise<Attempt> {
    return new Promise((resolve) => {
      // (settle runs only from I/O callbacks, after `deadline` below is set)
      const settle = (attempt: Attempt) => {
        clearTimeout(deadline)
        resolve(attempt)
      }
      const request = upstream.request(
        upstream.url,
        {
          method: 'POST',
          agent: upstream.agent,
          headers: {
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
          },
        },
        (response) => {
          const chunks: Buffer[] = []
          let size = 0
          response.on('data', (chunk: Buffer) => {
            size += chunk.length
            if (size > maxAnswerBytes) {
              request.destroy()
              settle({ ok: false, reason: 'shape' })
            } else chunks.push(chunk)
          })
          response.on('error', () => settle({ ok: false, reason: 'no-response' }))
          response.on('end', () => {
            const status = response.statusCode ?? 0
            if (status < 200 || status > 299) {
              const retryAfter = response.headers['retry-after']
              return settle({
                ok: false,
                reason: 'status',
                status,
                ...(retryAfter ? { retryAfter } : {}),
              })
            }
            const answers = readUpstreamAnswer(Buffer.concat(chunks).toString('utf8'), count, batch)
            settle(answers ? { ok: true, answers } : { ok: false, reason: 'shape' })
          })
        },
      )
      // A deadline for the whole exchange: an upstream that trickles bytes is as dead as a silent
      // one, and the next upstream is tried.
      const deadline = setTimeout(() => {
        request.destroy()
        settle({ ok: false, reason: 'no-response' })
      }, this.timeoutMs)
      request.on('error', () => settle({ ok: false, reason: 'no-response' }))
      request.end(body)
    })
  }
}
