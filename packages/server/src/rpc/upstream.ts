import { readUpstreamAnswer, type JsonRpcAnswer } from './answer.ts'
import { upstreamHttp, type UpstreamHttp } from './upstream-http.ts'

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

/** One call sent upstream and everyone waiting for its answer. */
interface Sent {
  call: ForwardedCall
  waiting: Queued[]
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

/** A failed attempt by position and reason only: upstream URLs may embed provider keys. */
export interface UpstreamFailure {
  /** The upstream's position in the chain's list, from 1. */
  upstream: number
  reason: string
  status?: number
}

export interface UpstreamPoolOptions {
  /** The deadline of one attempt, whole exchange included. */
  timeoutMs: number
  /**
   * Calls that go upstream together go as one JSON-RPC batch of at most this many (1 = never
   * batch), as ethers and viem batch clients do: one HTTP exchange instead of many, for the
   * gateway and for the node.
   */
  maxBatch?: number
  /** Exchanges out at once before calls wait to go together (see `request`); 1 by default. */
  maxInFlight?: number
  /** The longest a call waits for an exchange to come back before it goes anyway; 1 ms by default. */
  maxWaitMs?: number
  /**
   * Whether identical calls that go together may share one upstream call (reads: they are all
   * sent at the same moment, after every one of them arrived, so each gets an answer as fresh
   * as its own call would have been). None by default.
   */
  shareable?: (method: string) => boolean
  /**
   * Whether a call goes in an exchange of its own: in a batch, every call waits for the slowest,
   * so calls whose cost grows with the data (logs of a block range) must not hold up the rest.
   */
  alone?: (method: string) => boolean
  onFailure?: (failure: UpstreamFailure) => void
  /** Told the outcome (`ok` or the failure reason) and duration of every attempt. */
  onAttempt?: (outcome: string, seconds: number) => void
}

/**
 * The upstream nodes of one chain, tried in order on transport errors, error statuses and wrong
 * shapes, never on a JSON-RPC error object (a revert is the answer, not a node failure).
 */
export class UpstreamPool {
  readonly #upstreams: UpstreamHttp[]
  #queue: Queued[] = []
  #flushScheduled = false
  #inFlight = 0
  #waitTimer: NodeJS.Timeout | undefined

  readonly timeoutMs: number
  readonly maxBatch: number
  readonly maxInFlight: number
  readonly maxWaitMs: number
  readonly #options: UpstreamPoolOptions

  constructor(urls: readonly string[], options: UpstreamPoolOptions) {
    this.#options = options
    this.timeoutMs = options.timeoutMs
    this.maxBatch = options.maxBatch ?? 1
    this.maxInFlight = options.maxInFlight ?? 1
    this.maxWaitMs = options.maxWaitMs ?? 1
    this.#upstreams = urls.map((raw) => upstreamHttp(new URL(raw), maxAnswerBytes))
  }

  /**
   * Forwards one call, batched with the others of this event-loop turn; resolves with its answer.
   * While `maxInFlight` exchanges are already out, calls wait for one to come back (or for
   * `maxWaitMs`, whichever is first) and go together: under load, one exchange carries many
   * calls instead of a few each, which costs the gateway and the node much less per call. With
   * little load nothing waits.
   */
  request(call: ForwardedCall): Promise<JsonRpcAnswer> {
    return new Promise((resolve, reject) => {
      this.#queue.push({ call, resolve, reject })
      this.#schedule()
    })
  }

  #schedule(): void {
    if (this.#flushScheduled || this.#queue.length === 0) return
    if (this.#inFlight < this.maxInFlight) {
      this.#flushScheduled = true
      setImmediate(() => this.#flush())
    } else {
      this.#waitTimer ??= setTimeout(() => {
        this.#waitTimer = undefined
        if (!this.#flushScheduled) this.#flush()
      }, this.maxWaitMs)
    }
  }

  #flush(): void {
    this.#flushScheduled = false
    clearTimeout(this.#waitTimer)
    this.#waitTimer = undefined
    const sent = this.#share(this.#queue)
    this.#queue = []
    for (const chunk of this.#chunks(sent)) {
      const calls = chunk.map(({ call }, id): UpstreamCall => {
        const forwarded: UpstreamCall = { jsonrpc: '2.0', id, method: call.method }
        if (call.params !== undefined) forwarded.params = call.params
        return forwarded
      })
      this.#inFlight++
      this.send(calls, calls.length > 1)
        .then(
          (answers) =>
            chunk.forEach(({ waiting }, n) =>
              waiting.forEach((queued) => queued.resolve(answers[n]!)),
            ),
          (error: unknown) =>
            chunk.forEach(({ waiting }) => waiting.forEach((queued) => queued.reject(error))),
        )
        .finally(() => {
          this.#inFlight--
          this.#schedule()
        })
    }
  }

  /** Batches of at most `maxBatch`, with every call that must go alone in a batch of one. */
  #chunks(sent: Sent[]): Sent[][] {
    const alone = this.#options.alone
    const together = alone ? sent.filter((one) => !alone(one.call.method)) : sent
    const chunks: Sent[][] = []
    for (let start = 0; start < together.length; start += this.maxBatch) {
      chunks.push(together.slice(start, start + this.maxBatch))
    }
    if (alone) for (const one of sent) if (alone(one.call.method)) chunks.push([one])
    return chunks
  }

  /** The calls to send: identical shareable calls of the queue become one. */
  #share(queue: Queued[]): Sent[] {
    if (queue.length === 1) return [{ call: queue[0]!.call, waiting: queue }]
    const sent: Sent[] = []
    const byCall = new Map<string, Sent>()
    for (const queued of queue) {
      const { call } = queued
      if (!this.#options.shareable?.(call.method)) {
        sent.push({ call, waiting: [queued] })
        continue
      }
      const key = `${call.method}:${JSON.stringify(call.params ?? [])}`
      const same = byCall.get(key)
      if (same) same.waiting.push(queued)
      else {
        const one = { call, waiting: [queued] }
        byCall.set(key, one)
        sent.push(one)
      }
    }
    return sent
  }

  /** Sends the calls (one alone, or as a batch) and returns the answers in call order. */
  async send(calls: UpstreamCall[], batch: boolean): Promise<JsonRpcAnswer[]> {
    const body = JSON.stringify(batch ? calls : calls[0])
    let last: Attempt | undefined
    for (const [index, upstream] of this.#upstreams.entries()) {
      const started = performance.now()
      last = await this.#attempt(upstream, body, calls.length, batch)
      this.#options.onAttempt?.(last.ok ? 'ok' : last.reason, (performance.now() - started) / 1000)
      if (last.ok) return last.answers
      this.#options.onFailure?.({
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
    clearTimeout(this.#waitTimer)
    for (const upstream of this.#upstreams) upstream.close()
  }

  async #attempt(
    upstream: UpstreamHttp,
    body: string,
    count: number,
    batch: boolean,
  ): Promise<Attempt> {
    const answer = await upstream.post(body, this.timeoutMs)
    if (!answer.ok)
      return { ok: false, reason: answer.reason === 'too-large' ? 'shape' : 'no-response' }
    if (answer.status < 200 || answer.status > 299) {
      return {
        ok: false,
        reason: 'status',
        status: answer.status,
        ...(answer.retryAfter ? { retryAfter: answer.retryAfter } : {}),
      }
    }
    const answers = readUpstreamAnswer(answer.body.toString('utf8'), count, batch)
    return answers ? { ok: true, answers } : { ok: false, reason: 'shape' }
  }
}
