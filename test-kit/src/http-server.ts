import http from 'node:http'
import type net from 'node:net'

// The one way tests stand up an HTTP server of their own (a misbehaving node, a flaky server or
// proxy): on 127.0.0.1, a free port, the request body read whole, and a close() that also ends
// open keep-alive connections so a test never hangs on them.

export interface TestRequest {
  req: http.IncomingMessage
  res: http.ServerResponse
  body: Buffer
}

export interface TestServer {
  url: string
  close(): Promise<void>
}

export async function startTestServer(
  handle: (request: TestRequest) => unknown,
): Promise<TestServer> {
  const sockets = new Set<net.Socket>()
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    try {
      await handle({ req, res, body: Buffer.concat(chunks) })
    } catch {
      // What the handler stood in front of went away (a node stopped as its test ends): answer
      // as a failing upstream does, rather than leave an unhandled rejection in the test run.
      if (!res.headersSent) res.writeHead(502).end()
      else res.destroy()
    }
  })
  server.on('connection', (socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy()
        server.close(() => resolve())
      }),
  }
}

/** Answers `value` as JSON with `status` (and its standard text unless given). */
export function sendJson(
  res: http.ServerResponse,
  status: number,
  value: unknown,
  statusText?: string,
): void {
  res.writeHead(status, statusText ?? http.STATUS_CODES[status], {
    'content-type': 'application/json',
  })
  res.end(JSON.stringify(value))
}
