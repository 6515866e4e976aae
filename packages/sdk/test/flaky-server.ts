import http from 'node:http'
import type net from 'node:net'

// A small HTTP server on 127.0.0.1 that fails its first N requests — with a 5xx answer or by
// destroying the socket — and then answers normally. Tests of the backend client's retries run
// against it (fake only at the network boundary, examples.md 10).

export type Failure = 'status-500' | 'status-503-html' | 'destroy'

export interface SeenRequest {
  method: string
  path: string
  headers: http.IncomingHttpHeaders
  body: string
}

export interface FlakyServer {
  url: string
  /** How each of the first requests fails, in order; later requests are answered by `answer`. */
  failures: Failure[]
  /** The answer once the failures are used up. */
  answer: (request: SeenRequest) => { status: number; body?: unknown }
  seen: SeenRequest[]
  close(): Promise<void>
}

export async function startFlakyServer(failures: Failure[] = []): Promise<FlakyServer> {
  const sockets = new Set<net.Socket>()
  const flaky: FlakyServer = {
    url: '',
    failures,
    answer: () => ({ status: 200, body: { ok: true } }),
    seen: [],
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy()
        server.close(() => resolve())
      }),
  }
  const server = http.createServer(async (req, res) => {
    let body = ''
    for await (const chunk of req) body += chunk
    const seen = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body }
    flaky.seen.push(seen)
    const failure = flaky.failures[flaky.seen.length - 1]
    if (failure === 'destroy') {
      req.socket.destroy()
      return
    }
    if (failure === 'status-500') {
      res.writeHead(500, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ error: { code: 'internal', message: 'Internal server error' } }))
      return
    }
    if (failure === 'status-503-html') {
      res.writeHead(503, { 'content-type': 'text/html' })
      res.end('<html>Service Unavailable</html>')
      return
    }
    const answer = flaky.answer(seen)
    if (answer.body === undefined) {
      res.writeHead(answer.status)
      res.end()
      return
    }
    res.writeHead(answer.status, { 'content-type': 'application/json' })
    res.end(JSON.stringify(answer.body))
  })
  server.on('connection', (socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address() as net.AddressInfo
  flaky.url = `http://127.0.0.1:${address.port}`
  return flaky
}
