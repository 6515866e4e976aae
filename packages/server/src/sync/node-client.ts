import http from 'node:http'
import https from 'node:https'
import { LogStream, type RawLog, type RpcErrorObject } from './log-stream.ts'

// One sync's own JSON-RPC client to its chain's nodes (each sync has one: a large answer or a
// stalled node of one sync never holds up or fails another's calls). Its own connections
// (keep-alive), no limit on an answer's size (logs are read as they arrive, log-stream.ts), the
// nodes tried in order when one cannot be reached. A node's JSON-RPC error is its answer and is
// not retried elsewhere: the sync decides (a refused range is read again smaller).

/** A node answered with a JSON-RPC error (e.g. a range it refuses). */
export class RpcError extends Error {
  override name = 'RpcError'
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message)
  }
}

/** No node could be reached, or none answered in time or in JSON-RPC. */
export class NodeUnreachable extends Error {
  override name = 'NodeUnreachable'
}

export interface LogFilter {
  /** The contracts; every contract when absent. */
  address?: string[] | undefined
  topics?: (string[] | null)[]
  fromBlock: bigint
  toBlock: bigint
}

export interface BlockHeader {
  number: bigint
  hash: string
  timestamp: bigint
}

interface Options {
  /** Longest wait for a node's first byte, and between two bytes of its answer. */
  idleMs?: number
}

const hex = (n: bigint) => `0x${n.toString(16)}`

export class NodeClient {
  readonly #urls: URL[]
  readonly #agents: (http.Agent | https.Agent)[]
  readonly #idleMs: number
  #id = 0
  /** The node answering lately: tried first. */
  #current = 0

  constructor(urls: readonly string[], options: Options = {}) {
    if (urls.length === 0) throw new Error('a node client needs a URL')
    this.#urls = urls.map((url) => new URL(url))
    this.#agents = this.#urls.map((url) =>
      url.protocol === 'https:'
        ? new https.Agent({ keepAlive: true, maxSockets: 4 })
        : new http.Agent({ keepAlive: true, maxSockets: 4 }),
    )
    this.#idleMs = options.idleMs ?? 30_000
  }

  /** One call; its result. */
  async call<T>(method: string, params: unknown[] = []): Promise<T> {
    const body = JSON.stringify({ jsonrpc: '2.0', id: ++this.#id, method, params })
    const answer = (await this.#post(body)) as { result?: T; error?: RpcErrorObject }
    if (answer.error) throw new RpcError(answer.error.code, answer.error.message)
    return answer.result as T
  }

  /** Several calls in JSON-RPC batches of at most `size`; their results in order. */
  async batch(calls: { method: string; params: unknown[] }[], size = 50): Promise<unknown[]> {
    const results: unknown[] = []
    for (let start = 0; start < calls.length; start += size) {
      const part = calls.slice(start, start + size)
      const first = this.#id + 1
      this.#id += part.length
      const body = JSON.stringify(
        part.map((call, i) => ({ jsonrpc: '2.0', id: first + i, ...call })),
      )
      const answers = (await this.#post(body)) as
        { id: number; result?: unknown; error?: RpcErrorObject }[] | { error?: RpcErrorObject }
      if (!Array.isArray(answers)) {
        const error = answers.error
        throw error ? new RpcError(error.code, error.message) : new NodeUnreachable('no batch')
      }
      const byId = new Map(answers.map((answer) => [answer.id, answer]))
      part.forEach((_call, i) => {
        const answer = byId.get(first + i)
        if (!answer) throw new NodeUnreachable('the node’s batch answer misses a call')
        if (answer.error) throw new RpcError(answer.error.code, answer.error.message)
        results.push(answer.result)
      })
    }
    return results
  }

  async blockNumber(): Promise<bigint> {
    return BigInt(await this.call<string>('eth_blockNumber'))
  }

  /** The headers of `numbers` (batched); a block the node does not have is missing. */
  async blocks(numbers: readonly bigint[]): Promise<Map<bigint, BlockHeader>> {
    const found = new Map<bigint, BlockHeader>()
    if (numbers.length === 0) return found
    const results = await this.batch(
      numbers.map((n) => ({ method: 'eth_getBlockByNumber', params: [hex(n), false] })),
    )
    for (const block of results as ({ number: string; hash: string; timestamp: string } | null)[])
      if (block)
        found.set(BigInt(block.number), {
          number: BigInt(block.number),
          hash: block.hash,
          timestamp: BigInt(block.timestamp),
        })
    return found
  }

  /**
   * `eth_getLogs`, each log handed over as it arrives to the function `begin` gives (called
   * again when another node is asked after one failed midway: what it was given is void). The
   * function answers false to stop reading (the rest is dropped): resolves true when every log
   * was read.
   */
  async logs(filter: LogFilter, begin: () => (log: RawLog) => boolean | void): Promise<boolean> {
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: ++this.#id,
      method: 'eth_getLogs',
      params: [
        {
          ...(filter.address ? { address: filter.address } : {}),
          ...(filter.topics ? { topics: filter.topics } : {}),
          fromBlock: hex(filter.fromBlock),
          toBlock: hex(filter.toBlock),
        },
      ],
    })
    let stopped = false
    let onLog: (log: RawLog) => boolean | void = () => {}
    const answer = await this.#post(body, () => {
      onLog = begin()
      stopped = false
      let wanted = true
      const stream = new LogStream((log) => {
        if (!wanted) return
        if (onLog(log) === false) wanted = false
      })
      return {
        push: (chunk: Buffer) => {
          stream.push(chunk)
          if (!wanted) stopped = true
          return wanted
        },
        end: () => stream.end(),
      }
    })
    if (stopped) return false
    const end = answer as ReturnType<LogStream['end']>
    if (end.logs) return true
    if (end.error) throw new RpcError(end.error.code, end.error.message)
    if (!Array.isArray(end.result)) throw new NodeUnreachable('eth_getLogs answered no list')
    for (const log of end.result as RawLog[]) if (onLog(log) === false) return false
    return true
  }

  close(): void {
    for (const agent of this.#agents) agent.destroy()
  }

  /**
   * Posts `body` to the nodes in turn until one answers in JSON. `reader` reads the answer as it
   * arrives (`push` answers false to stop); without one it is parsed whole.
   */
  async #post(
    body: string,
    reader?: () => { push(chunk: Buffer): boolean; end(): unknown },
  ): Promise<unknown> {
    let lastError: unknown
    for (let attempt = 0; attempt < this.#urls.length; attempt++) {
      const index = (this.#current + attempt) % this.#urls.length
      try {
        const answer = await this.#send(index, body, reader?.())
        this.#current = index
        return answer
      } catch (error) {
        // A node that answered a JSON-RPC error answered: the others would too, or differently.
        if (error instanceof RpcError) throw error
        lastError = error
      }
    }
    throw lastError instanceof NodeUnreachable
      ? lastError
      : new NodeUnreachable(
          `no node answered: ${lastError instanceof Error ? lastError.message : String(lastError)}`,
        )
  }

  #send(
    index: number,
    body: string,
    reader: { push(chunk: Buffer): boolean; end(): unknown } | undefined,
  ): Promise<unknown> {
    const url = this.#urls[index]!
    const client = url.protocol === 'https:' ? https : http
    return new Promise((resolve, reject) => {
      const request = client.request(
        url,
        {
          method: 'POST',
          agent: this.#agents[index],
          headers: {
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
          },
        },
        (response) => {
          if (response.statusCode !== 200) {
            response.resume()
            reject(new NodeUnreachable(`the node answered HTTP ${response.statusCode}`))
            return
          }
          const chunks: Buffer[] = []
          let done = false
          response.on('data', (chunk: Buffer) => {
            if (done) return
            if (!reader) {
              chunks.push(chunk)
              return
            }
            try {
              if (!reader.push(chunk)) {
                // Enough read: the rest is dropped with the connection.
                done = true
                request.destroy()
                resolve(undefined)
              }
            } catch (error) {
              done = true
              request.destroy()
              reject(new NodeUnreachable(`unreadable answer: ${(error as Error).message}`))
            }
          })
          response.on('end', () => {
            if (done) return
            done = true
            try {
              resolve(reader ? reader.end() : JSON.parse(Buffer.concat(chunks).toString('utf8')))
            } catch (error) {
              reject(new NodeUnreachable(`unreadable answer: ${(error as Error).message}`))
            }
          })
          response.on('error', (error) => {
            if (!done) reject(new NodeUnreachable(error.message))
            done = true
          })
          response.on('aborted', () => {
            if (!done) reject(new NodeUnreachable('the node cut its answer short'))
            done = true
          })
        },
      )
      request.setTimeout(this.#idleMs, () =>
        request.destroy(new NodeUnreachable(`no answer for ${this.#idleMs} ms`)),
      )
      request.on('error', (error) =>
        reject(error instanceof NodeUnreachable ? error : new NodeUnreachable(error.message)),
      )
      request.end(body)
    })
  }
}
