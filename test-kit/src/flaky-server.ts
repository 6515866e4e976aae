import type http from 'node:http'
import { sendJson, startTestServer } from './http-server.ts'

// A small HTTP server on 127.0.0.1 that fails its first N requests — with a 5xx answer or by
// destroying the socket — and then answers normally. Tests of the backend client's retries run
// against it (faked only at the network boundary).

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
  const flaky: FlakyServer = {
    url: '',
    failures,
    answer: () => ({ status: 200, body: { ok: true } }),
    seen: [],
    close: async () => {},
  }
  const server = await startTestServer(({ req, res, body }) => {
    const seen = {
      method: req.method ?? '',
      path: req.url ?? '',
      headers: req.headers,
      body: body.toString(),
    }
    flaky.seen.push(seen)
    const failure = flaky.failures[flaky.seen.length - 1]
    if (failure === 'destroy') return void req.socket.destroy()
    if (failure === 'status-500') {
      return sendJson(res, 500, { error: { code: 'internal', message: 'Internal server error' } })
    }
    if (failure === 'status-503-html') {
      res.writeHead(503, { 'content-type': 'text/html' })
      return void res.end('<html>Service Unavailable</html>')
    }
    const answer = flaky.answer(seen)
    if (answer.body === undefined) {
      res.writeHead(answer.status)
      return void res.end()
    }
    sendJson(res, answer.status, answer.body)
  })
  flaky.url = server.url
  flaky.close = server.close
  return flaky
}
