// Reads one HTTP/1.x response from the bytes of a connection, as they arrive: the status, the
// one header the gateway needs (Retry-After), the body framed by Content-Length, chunked
// transfer coding or the end of the connection, and whether the connection can carry another
// exchange. Informational (1xx) answers before the real one are skipped. Sizes are bounded.

export type ReadResult =
  | { ok: true; status: number; retryAfter?: string; body: Buffer; keepAlive: boolean }
  | { ok: false; reason: 'malformed' | 'too-large' }

const CRLF = Buffer.from('\r\n')
const HEAD_END = Buffer.from('\r\n\r\n')
const STATUS_LINE = /^HTTP\/1\.([01]) ([1-5][0-9]{2})(?: |$)/
const maxHeadBytes = 64 * 1024
const maxLineBytes = 4 * 1024

type Phase = 'head' | 'length' | 'chunk-size' | 'chunk-data' | 'trailers' | 'until-close'

export class ResponseReader {
  #pending: Buffer = Buffer.alloc(0)
  #phase: Phase = 'head'
  #status = 0
  #retryAfter: string | undefined
  #keepAlive = true
  /** Body bytes still expected in the current length-framed body or chunk. */
  #remaining = 0
  #parts: Buffer[] = []
  #size = 0
  #received = false

  constructor(private readonly maxBodyBytes: number) {}

  /** Whether any byte of a response (an interim one included) has arrived. */
  get started(): boolean {
    return this.#received
  }

  /** Feeds bytes; returns the result once the response is complete or broken, else undefined. */
  push(chunk: Buffer): ReadResult | undefined {
    if (chunk.length > 0) this.#received = true
    this.#pending = this.#pending.length ? Buffer.concat([this.#pending, chunk]) : chunk
    for (;;) {
      const step = this.#step()
      if (step === 'wait') return undefined
      if (step !== 'more') return step
    }
  }

  /** The connection ended: completes a body read to the end, anything else was cut short. */
  end(): ReadResult {
    if (this.#phase === 'until-close') return this.#done(false)
    return { ok: false, reason: 'malformed' }
  }

  /** One step: a result, `more` when it made progress, `wait` when it needs more bytes. */
  #step(): ReadResult | 'more' | 'wait' {
    switch (this.#phase) {
      case 'head':
        return this.#readHead()
      case 'length':
      case 'chunk-data':
        return this.#readBody()
      case 'chunk-size':
        return this.#readChunkSize()
      case 'trailers':
        return this.#readTrailer()
      case 'until-close':
        return this.#take(this.#pending.length) ?? 'wait'
    }
  }

  #readHead(): ReadResult | 'more' | 'wait' {
    const end = this.#pending.indexOf(HEAD_END)
    if (end < 0) {
      return this.#pending.length > maxHeadBytes ? { ok: false, reason: 'malformed' } : 'wait'
    }
    const lines = this.#pending.toString('latin1', 0, end).split('\r\n')
    this.#pending = this.#pending.subarray(end + HEAD_END.length)
    const status = STATUS_LINE.exec(lines[0] ?? '')
    if (!status) return { ok: false, reason: 'malformed' }
    const code = Number(status[2])
    // An interim answer (100 Continue, 103 Early Hints): the real one follows.
    if (code < 200) return code === 101 ? { ok: false, reason: 'malformed' } : 'more'
    this.#status = code
    const http10 = status[1] === '0'
    let length: number | undefined
    let chunked = false
    let connection = ''
    for (let index = 1; index < lines.length; index++) {
      const line = lines[index]!
      const colon = line.indexOf(':')
      if (colon <= 0) return { ok: false, reason: 'malformed' }
      const name = line.slice(0, colon).trim().toLowerCase()
      const value = line.slice(colon + 1).trim()
      if (name === 'content-length') {
        if (!/^[0-9]{1,15}$/.test(value)) return { ok: false, reason: 'malformed' }
        if (length !== undefined && length !== Number(value)) {
          return { ok: false, reason: 'malformed' }
        }
        length = Number(value)
      } else if (name === 'transfer-encoding') {
        chunked = /(?:^|,)\s*chunked\s*$/i.test(value)
        if (!chunked) return { ok: false, reason: 'malformed' } // a coding we cannot undo
      } else if (name === 'connection') connection += `,${value.toLowerCase()}`
      else if (name === 'retry-after') this.#retryAfter = value
    }
    this.#keepAlive = http10 ? /\bkeep-alive\b/.test(connection) : !/\bclose\b/.test(connection)
    if (code === 204 || code === 304) return this.#done(this.#keepAlive)
    if (chunked) this.#phase = 'chunk-size'
    else if (length !== undefined) {
      if (length > this.maxBodyBytes) return { ok: false, reason: 'too-large' }
      if (length === 0) return this.#done(this.#keepAlive)
      this.#phase = 'length'
      this.#remaining = length
    } else {
      this.#phase = 'until-close'
      this.#keepAlive = false
    }
    return 'more'
  }

  #readBody(): ReadResult | 'more' | 'wait' {
    const taken = this.#take(Math.min(this.#remaining, this.#pending.length))
    if (taken) return taken
    if (this.#remaining > 0) return 'wait'
    if (this.#phase === 'length') return this.#done(this.#keepAlive)
    // A chunk's data ends with CRLF.
    if (this.#pending.length < CRLF.length) return 'wait'
    if (!this.#pending.subarray(0, CRLF.length).equals(CRLF)) {
      return { ok: false, reason: 'malformed' }
    }
    this.#pending = this.#pending.subarray(CRLF.length)
    this.#phase = 'chunk-size'
    return 'more'
  }

  #readChunkSize(): ReadResult | 'more' | 'wait' {
    const line = this.#line()
    if (line === undefined) return 'wait'
    if (typeof line !== 'string') return line
    const size = /^([0-9a-fA-F]{1,8})\s*(?:;.*)?$/.exec(line)
    if (!size) return { ok: false, reason: 'malformed' }
    this.#remaining = parseInt(size[1]!, 16)
    this.#phase = this.#remaining === 0 ? 'trailers' : 'chunk-data'
    return 'more'
  }

  #readTrailer(): ReadResult | 'more' | 'wait' {
    const line = this.#line()
    if (line === undefined) return 'wait'
    if (typeof line !== 'string') return line
    return line === '' ? this.#done(this.#keepAlive) : 'more'
  }

  /** The next CRLF-ended line, undefined until it is whole, or a failure. */
  #line(): string | ReadResult | undefined {
    const end = this.#pending.indexOf(CRLF)
    if (end < 0) {
      return this.#pending.length > maxLineBytes ? { ok: false, reason: 'malformed' } : undefined
    }
    const line = this.#pending.toString('latin1', 0, end)
    this.#pending = this.#pending.subarray(end + CRLF.length)
    return line
  }

  /** Moves `count` pending bytes into the body; a failure when the body grows too large. */
  #take(count: number): ReadResult | undefined {
    if (count === 0) return undefined
    this.#parts.push(this.#pending.subarray(0, count))
    this.#pending = this.#pending.subarray(count)
    this.#size += count
    if (this.#phase !== 'until-close') this.#remaining -= count
    if (this.#size > this.maxBodyBytes) return { ok: false, reason: 'too-large' }
    return undefined
  }

  #done(keepAlive: boolean): ReadResult {
    const body = this.#parts.length === 1 ? this.#parts[0]! : Buffer.concat(this.#parts)
    return {
      ok: true,
      status: this.#status,
      ...(this.#retryAfter !== undefined ? { retryAfter: this.#retryAfter } : {}),
      body,
      // Bytes past the end of the answer (nothing was asked for them): the connection is spent.
      keepAlive: keepAlive && this.#pending.length === 0,
    }
  }
}
