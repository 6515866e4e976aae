import type http from 'node:http'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Duplex } from 'node:stream'
import type { ErrorCode } from '@portico/sdk/wire'
import { httpServer } from '../rpc/lean-path.ts'
import { serverVersion } from '../version.ts'

// The server's port, open from the first moments of a start: opening the database (a new embedded
// one is unpacked from its template), its migrations and the routes' schemas take seconds, and a
// supervisor or a load balancer probing `/api/health` meanwhile should hear that the process is
// alive and starting, not find a closed port. Until the routes are ready, health answers
// `{ "status": "starting" }` and everything else `503 server_starting` (with `Retry-After`);
// `/api/ready` answers 503 until then, as after. Then Fastify serves on this same listener.

export interface StartingServer {
  /** The listener Fastify serves on once its routes are ready (`buildServer`'s `server`). */
  readonly server: http.Server
  /** Every request from now on goes to `handler`. */
  serve(handler: (request: IncomingMessage, response: ServerResponse) => void): void
}

/** Listens on `host`:`port` at once, answering as a starting server until `serve` is called. */
export async function listenWhileStarting(options: {
  host: string
  port: number
  timeouts: { headersMs: number; requestMs: number; idleMs: number }
  database: 'pglite' | 'postgres'
}): Promise<StartingServer> {
  let handler = (request: IncomingMessage, response: ServerResponse) =>
    answerStarting(request, response, options.database)
  const server = httpServer(
    options.timeouts,
    () => false,
    (request, response) => handler(request, response),
  )
  // A live-query socket asked for meanwhile is refused the same way (its client reconnects),
  // until the server's own socket handler is attached.
  const refuseUpgrade = (_request: IncomingMessage, socket: Duplex) => {
    if (server.listenerCount('upgrade') > 1) return
    socket.end('HTTP/1.1 503 Service Unavailable\r\nRetry-After: 1\r\nConnection: close\r\n\r\n')
  }
  server.on('upgrade', refuseUpgrade)
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port, options.host, () => {
      server.off('error', reject)
      resolve()
    })
  })
  return {
    server,
    serve(next) {
      handler = next
      server.off('upgrade', refuseUpgrade)
    },
  }
}

function answerStarting(
  request: IncomingMessage,
  response: ServerResponse,
  database: 'pglite' | 'postgres',
): void {
  const path = (request.url ?? '/').split('?')[0]
  const health = path === '/api/health' && (request.method === 'GET' || request.method === 'HEAD')
  const code: ErrorCode = 'server_starting'
  const body = JSON.stringify(
    health
      ? { status: 'starting', version: serverVersion, database }
      : {
          error: {
            code,
            message: 'The server is starting: try again in a moment.',
          },
        },
  )
  // The request's body, if any, is not read: the connection closes after the answer.
  response.writeHead(health ? 200 : 503, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    'cache-control': 'no-store',
    ...(health ? {} : { 'retry-after': '1', connection: 'close' }),
  })
  response.end(request.method === 'HEAD' ? undefined : body)
}
