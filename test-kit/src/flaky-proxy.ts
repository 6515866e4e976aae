import { startTestServer } from './http-server.ts'

// An HTTP proxy on 127.0.0.1 in front of a real server that misbehaves on its first requests,
// as a flaky network or load balancer would: the failure can happen before the request reaches
// the server (nothing applied) or after (applied, but the answer is lost).

export type ProxyFault =
  | 'drop-before' // closes the connection without forwarding
  | '503-before' // answers 503 without forwarding
  | 'drop-after' // forwards, waits for the answer, then closes the connection
  | '502-after' // forwards, then answers 502 instead of the real answer

export interface FlakyProxy {
  url: string
  faults: ProxyFault[]
  /** Method and path of every request received. */
  seen: { method: string; path: string; body: string }[]
  close(): Promise<void>
}

const HOP_BY_HOP = new Set([
  'host',
  'connection',
  'content-length',
  'transfer-encoding',
  'keep-alive',
])

export async function startFlakyProxy(
  target: string,
  faults: ProxyFault[] = [],
): Promise<FlakyProxy> {
  const proxy: FlakyProxy = { url: '', faults, seen: [], close: async () => {} }
  const server = await startTestServer(async ({ req, res, body }) => {
    proxy.seen.push({ method: req.method ?? '', path: req.url ?? '', body: body.toString() })
    const fault = proxy.faults[proxy.seen.length - 1]
    if (fault === 'drop-before') return void req.socket.destroy()
    if (fault === '503-before') {
      res.writeHead(503, { 'content-type': 'text/plain' })
      return void res.end('Service Unavailable')
    }
    const headers: Record<string, string> = {}
    for (const [name, value] of Object.entries(req.headers)) {
      if (typeof value === 'string' && !HOP_BY_HOP.has(name)) headers[name] = value
    }
    const answer = await fetch(`${target}${req.url}`, {
      method: req.method,
      headers,
      ...(body.length ? { body: new Uint8Array(body) } : {}),
    })
    const bytes = Buffer.from(await answer.arrayBuffer())
    if (fault === 'drop-after') return void req.socket.destroy()
    if (fault === '502-after') {
      res.writeHead(502, { 'content-type': 'text/plain' })
      return void res.end('Bad Gateway')
    }
    const type = answer.headers.get('content-type')
    res.writeHead(answer.status, type ? { 'content-type': type } : {})
    res.end(bytes)
  })
  proxy.url = server.url
  proxy.close = server.close
  return proxy
}
