import https from 'node:https'
import net from 'node:net'
import { ResponseReader, type ReadResult } from './http1-response.ts'

// How the gateway POSTs a JSON-RPC body to one upstream node and reads the answer. On plain
// `http:` (a node on the same host or private network, where the gateway's own cost shows most)
// each exchange is one write on a kept-alive connection, its answer read by
// rpc/http1-response.ts: `node:http`'s client spends about 60 µs of CPU per exchange on options,
// agents, events and streams, this under 30 µs. On `https:` Node's client stays, as TLS costs
// more than either.

/**
 * An exchange's outcome. Transport errors become `no-response` here and reach the logs as the
 * pool's failure reason only: their messages may name the host, and upstream URLs may embed keys.
 */
export type PostResult = ReadResult | { ok: false; reason: 'no-response' }

export interface UpstreamHttp {
  post(body: string, timeoutMs: number): Promise<PostResult>
  close(): void
}

export const upstreamHttp = (url: URL, maxAnswerBytes: number): UpstreamHttp =>
  url.protocol === 'http:'
    ? new PlainHttpUpstream(url, maxAnswerBytes)
    : new NodeHttpsUpstream(url, maxAnswerBytes)

/** Idle connections are closed after this long, before most servers' own keep-alive timeout. */
const idleMs = 4_000
const maxConnections = 256

interface Connection {
  socket: net.Socket
  reader: ResponseReader | undefined
  settle: ((result: PostResult) => void) | undefined
  /** Exchanges completed on it: a reused connection may have been closed by the server meanwhile. */
  served: number
  idleSince: number
}

export class PlainHttpUpstream implements UpstreamHttp {
  readonly #host: string
  readonly #port: number
  readonly #head: string
  readonly #idle: Connection[] = []
  readonly #all = new Set<Connection>()
  readonly #waiting: (() => void)[] = []
  readonly #sweep: NodeJS.Timeout

  constructor(
    url: URL,
    private readonly maxAnswerBytes: number,
  ) {
    this.#host = url.hostname.replace(/^\[(.*)\]$/, '$1')
    this.#port = Number(url.port || 80)
    const auth = url.username
      ? `authorization: Basic ${Buffer.from(
          `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`,
        ).toString('base64')}\r\n`
      : ''
    this.#head = `POST ${url.pathname}${url.search} HTTP/1.1\r\nhost: ${url.host}\r\n${auth}content-type: application/json\r\n`
    this.#sweep = setInterval(() => this.#closeIdle(Date.now() - idleMs), idleMs).unref()
  }

  /**
   * POSTs `body` and reads the answer within `timeoutMs`. A kept-alive connection the server
   * closed just before it was reused fails before any byte of an answer: the body goes once more
   * on a new connection, as the next upstream would get it anyway.
   */
  async post(body: string, timeoutMs: number): Promise<PostResult> {
    const deadline = Date.now() + timeoutMs
    for (;;) {
      const connection = await this.#take()
      const reused = connection.served > 0
      const { result, answered } = await this.#exchange(connection, body, deadline - Date.now())
      if (result.ok || !reused || answered || Date.now() >= deadline) return result
    }
  }

  /** Closes every connection; exchanges under way fail as `no-response`. */
  close(): void {
    clearInterval(this.#sweep)
    for (const connection of this.#all) connection.socket.destroy()
  }

  #exchange(
    connection: Connection,
    body: string,
    timeoutMs: number,
  ): Promise<{ result: PostResult; answered: boolean }> {
    return new Promise((resolve) => {
      const reader = new ResponseReader(this.maxAnswerBytes)
      const timer = setTimeout(() => connection.socket.destroy(), Math.max(1, timeoutMs))
      connection.reader = reader
      connection.settle = (result) => {
        clearTimeout(timer)
        connection.reader = undefined
        connection.settle = undefined
        if (result.ok && result.keepAlive) this.#release(connection)
        else connection.socket.destroy()
        resolve({ result, answered: reader.started })
      }
      connection.socket.write(
        `${this.#head}content-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
      )
    })
  }

  async #take(): Promise<Connection> {
    const stale = Date.now() - idleMs
    for (let idle = this.#idle.pop(); idle; idle = this.#idle.pop()) {
      if (idle.idleSince > stale && !idle.socket.destroyed) return idle
      idle.socket.destroy()
    }
    if (this.#all.size >= maxConnections) {
      await new Promise<void>((resolve) => this.#waiting.push(resolve))
      return this.#take()
    }
    return this.#connect()
  }

  #connect(): Connection {
    const socket = net.connect({ host: this.#host, port: this.#port, noDelay: true })
    socket.setKeepAlive(true, 1_000)
    const connection: Connection = {
      socket,
      reader: undefined,
      settle: undefined,
      served: 0,
      idleSince: 0,
    }
    socket.on('data', (chunk: Buffer) => {
      // Bytes while idle were never asked for: the connection cannot be trusted any more.
      if (!connection.reader) return socket.destroy()
      const result = connection.reader.push(chunk)
      if (result) connection.settle?.(result)
    })
    socket.on('end', () => {
      const reader = connection.reader
      // Closed before a byte of the answer: nothing was answered (a dropped keep-alive connection).
      if (reader)
        connection.settle?.(reader.started ? reader.end() : { ok: false, reason: 'no-response' })
      socket.destroy()
    })
    socket.on('error', () => {}) // 'close' follows and settles
    this.#all.add(connection)
    socket.on('close', () => {
      this.#all.delete(connection)
      connection.settle?.({ ok: false, reason: 'no-response' })
      const index = this.#idle.indexOf(connection)
      if (index >= 0) this.#idle.splice(index, 1)
      this.#waiting.shift()?.()
    })
    return connection
  }

  #release(connection: Connection) {
    connection.served++
    connection.idleSince = Date.now()
    const waiter = this.#waiting.shift()
    this.#idle.push(connection)
    waiter?.()
  }

  #closeIdle(before: number) {
    for (const connection of [...this.#idle]) {
      if (connection.idleSince < before) connection.socket.destroy()
    }
  }
}

/** Node's HTTPS client with keep-alive; the answer is read and bounded the same way. */
export class NodeHttpsUpstream implements UpstreamHttp {
  readonly #agent = new https.Agent({ keepAlive: true, maxSockets: maxConnections })

  constructor(
    private readonly url: URL,
    private readonly maxAnswerBytes: number,
  ) {}

  post(body: string, timeoutMs: number): Promise<PostResult> {
    return new Promise((resolve) => {
      // (settle runs only from I/O callbacks, after `deadline` below is set)
      const settle = (result: PostResult) => {
        clearTimeout(deadline)
        resolve(result)
      }
      const request = https.request(
        this.url,
        {
          method: 'POST',
          agent: this.#agent,
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
            if (size > this.maxAnswerBytes) {
              request.destroy()
              settle({ ok: false, reason: 'too-large' })
            } else chunks.push(chunk)
          })
          response.on('error', () => settle({ ok: false, reason: 'no-response' }))
          response.on('end', () => {
            const retryAfter = response.headers['retry-after']
            settle({
              ok: true,
              status: response.statusCode ?? 0,
              ...(retryAfter ? { retryAfter } : {}),
              body: Buffer.concat(chunks),
              keepAlive: true,
            })
          })
        },
      )
      // A deadline for the whole exchange: an upstream that trickles bytes is as dead as a silent one.
      const deadline = setTimeout(() => {
        request.destroy()
        settle({ ok: false, reason: 'no-response' })
      }, timeoutMs)
      request.on('error', () => settle({ ok: false, reason: 'no-response' }))
      request.end(body)
    })
  }

  close(): void {
    this.#agent.destroy()
  }
}
