// Reads an `eth_getLogs` answer as it arrives: each log of `result` is handed over as soon as its
// last byte is in, so a large answer is decoded while the rest is still on the wire and is never
// held whole (its size is not limited: the range asked for bounds it). Any other answer (an
// error, a result that is no list) is kept and read once complete.

/** A log as the node sends it (quantities as hex). */
export interface RawLog {
  address: string
  topics: string[]
  data: string
  blockHash: string
  blockNumber: string
  /** Sent by newer nodes (anvil, reth, geth): saves reading the block for its time. */
  blockTimestamp?: string
  transactionHash: string
  transactionIndex: string
  logIndex: string
  removed?: boolean
}

const QUOTE = 0x22
const BACKSLASH = 0x5c
const OPEN_BRACE = 0x7b
const CLOSE_BRACE = 0x7d
const OPEN_BRACKET = 0x5b
const CLOSE_BRACKET = 0x5d

/**
 * Splits one JSON-RPC answer into the logs of its `result` list, whatever its chunks. `push`
 * each chunk as it arrives (each log goes to `onLog`), then `end()`.
 */
export class LogStream {
  #phase: 'envelope' | 'list' | 'after' = 'envelope'
  /** The answer before its list (or all of it, when it has none): small. */
  #envelope = ''
  /** Where the scan of `#envelope` is, and its state there. */
  #scanned = 0
  #depth = 0
  #inString = false
  #escaped = false
  #keyStart = -1
  #key = ''
  #afterColon = false
  /** The bytes of a log still arriving. */
  #pending: Buffer | undefined

  constructor(private readonly onLog: (log: RawLog) => void) {}

  push(chunk: Buffer): void {
    if (this.#phase === 'after') return
    if (this.#phase === 'envelope') {
      const start = this.#envelope.length
      this.#envelope += chunk.toString('latin1')
      const listAt = this.#findList()
      if (listAt < 0) return
      this.#phase = 'list'
      // `#envelope` holds one character per byte (latin1): the same offsets as the chunk's.
      chunk = chunk.subarray(listAt - start)
      this.#envelope = this.#envelope.slice(0, listAt)
    }
    if (this.#pending) {
      chunk = Buffer.concat([this.#pending, chunk])
      this.#pending = undefined
    }
    this.#list(chunk)
  }

  /**
   * The end of the answer: `{ logs: true }` when its result was a list (every log was handed
   * over), else the answer as parsed (`result` or `error`).
   */
  end(): { logs: true } | { logs: false; result?: unknown; error?: RpcErrorObject } {
    if (this.#phase === 'after') return { logs: true }
    if (this.#phase === 'list') throw new Error('the node’s answer ended in the middle of its logs')
    const answer = JSON.parse(Buffer.from(this.#envelope, 'latin1').toString('utf8')) as {
      result?: unknown
      error?: RpcErrorObject
    }
    return { logs: false, result: answer.result, error: answer.error }
  }

  /** Scans the envelope for the `[` of its top-level `result`; its offset + 1, or -1. */
  #findList(): number {
    const text = this.#envelope
    for (let i = this.#scanned; i < text.length; i++) {
      const c = text.charCodeAt(i)
      if (this.#inString) {
        if (this.#escaped) this.#escaped = false
        else if (c === BACKSLASH) this.#escaped = true
        else if (c === QUOTE) {
          this.#inString = false
          if (this.#keyStart >= 0) {
            this.#key = text.slice(this.#keyStart, i)
            this.#keyStart = -1
          }
        }
        continue
      }
      if (c === QUOTE) {
        this.#inString = true
        // A string at the top level before a colon is a key.
        if (this.#depth === 1 && !this.#afterColon) this.#keyStart = i + 1
      } else if (c === 0x3a /* : */ && this.#depth === 1) this.#afterColon = true
      else if (c === 0x2c /* , */ && this.#depth === 1) this.#afterColon = false
      else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
        if (c === OPEN_BRACKET && this.#depth === 1 && this.#afterColon && this.#key === 'result')
          return i + 1
        this.#depth++
      } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) this.#depth--
    }
    this.#scanned = text.length
    return -1
  }

  /** Reads logs until the list or the chunk ends. */
  #list(chunk: Buffer): void {
    let i = 0
    while (i < chunk.length) {
      const byte = chunk[i]!
      if (byte === OPEN_BRACE) {
        const end = objectEnd(chunk, i)
        if (end < 0) {
          this.#pending = chunk.subarray(i)
          return
        }
        this.onLog(JSON.parse(chunk.toString('utf8', i, end + 1)) as RawLog)
        i = end + 1
      } else if (byte === CLOSE_BRACKET) {
        this.#phase = 'after'
        return
      } else i++
    }
  }
}

export interface RpcErrorObject {
  code: number
  message: string
  data?: unknown
}

/** Where the object starting at `start` ends (its `}`), or -1 when the chunk ends first. */
function objectEnd(chunk: Buffer, start: number): number {
  // A log holds hex strings, numbers, booleans and one list of strings: its first `}` ends it
  // when no `{`, backslash or odd number of quotes comes before (else the full scan decides).
  const close = chunk.indexOf(CLOSE_BRACE, start + 1)
  if (close >= 0) {
    const open = chunk.indexOf(OPEN_BRACE, start + 1)
    const escape = chunk.indexOf(BACKSLASH, start + 1)
    if (
      (open < 0 || open > close) &&
      (escape < 0 || escape > close) &&
      evenQuotes(chunk, start, close)
    )
      return close
  }
  let depth = 0
  let inString = false
  let escaped = false
  for (let i = start; i < chunk.length; i++) {
    const byte = chunk[i]!
    if (inString) {
      if (escaped) escaped = false
      else if (byte === BACKSLASH) escaped = true
      else if (byte === QUOTE) inString = false
    } else if (byte === QUOTE) inString = true
    else if (byte === OPEN_BRACE || byte === OPEN_BRACKET) depth++
    else if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) {
      depth--
      if (depth === 0) return i
    }
  }
  return -1
}

/** Whether an even number of quotes lies between `start` and `end` (so `end` is outside strings). */
function evenQuotes(chunk: Buffer, start: number, end: number): boolean {
  let quotes = 0
  for (let at = chunk.indexOf(QUOTE, start); at >= 0 && at < end; at = chunk.indexOf(QUOTE, at + 1))
    quotes++
  return quotes % 2 === 0
}
