import type http from 'node:http'
import { sendJson, startTestServer } from './http-server.ts'

// A tiny JSON-RPC "node" on 127.0.0.1 whose behaviour a test switches, to drive every failure
// of the catalogue through a real HTTP exchange (faked at the network boundary).

export type Behaviour =
  | 'ok' // valid answers: eth_chainId 0x7a69, eth_blockNumber 0x2a, anything else null
  | 'no-answer' // reads the request and never answers
  | 'destroy' // closes the socket without an answer
  | 'trickle' // starts a valid answer, then sends one byte every 200 ms, never finishing
  | 'status-500' // 500 with the status text "Node Overloaded"
  | 'throttle' // 429 with Retry-After (see `retryAfter`), then `ok` after `throttleTimes` answers
  | 'non-json'
  | 'html'
  | 'wrong-id'
  | 'no-result-no-error'
  | 'revert' // a JSON-RPC error object, as a node answers a reverted call

export interface MisbehavingNode {
  url: string
  behaviour: Behaviour
  /** `Retry-After` value sent with 429s (seconds or an HTTP date). */
  retryAfter: string
  /** How many 429s to send before answering normally. */
  throttleTimes: number
  /** Requests received (bodies parsed). */
  requests: unknown[]
  /** Path and headers of each request received. */
  seen: { path: string; headers: http.IncomingHttpHeaders }[]
  close(): Promise<void>
}

function answerFor(call: { id?: unknown; method?: string }): unknown {
  const results: Record<string, unknown> = { eth_chainId: '0x7a69', eth_blockNumber: '0x2a' }
  return { jsonrpc: '2.0', id: call.id, result: results[call.method ?? ''] ?? null }
}

export async function startMisbehavingNode(behaviour: Behaviour = 'ok'): Promise<MisbehavingNode> {
  let throttled = 0
  const node: MisbehavingNode = {
    url: '',
    behaviour,
    retryAfter: '0',
    throttleTimes: Number.POSITIVE_INFINITY,
    requests: [],
    seen: [],
    close: async () => {},
  }
  const server = await startTestServer(({ req, res, body: bytes }) => {
    const body = JSON.parse(bytes.toString()) as
      { id?: unknown; method?: string } | { id?: unknown; method?: string }[]
    node.requests.push(body)
    node.seen.push({ path: req.url ?? '', headers: req.headers })
    const json = (status: number, value: unknown) => sendJson(res, status, value)
    const first = Array.isArray(body) ? body[0]! : body
    switch (node.behaviour) {
      case 'no-answer':
        return
      case 'destroy':
        return req.socket.destroy()
      case 'trickle': {
        res.writeHead(200, { 'content-type': 'application/json' })
        res.write('{"jsonrpc":"2.0","id":0,"result":"0x')
        const timer = setInterval(() => res.write('0'), 200)
        res.on('close', () => clearInterval(timer))
        return
      }
      case 'status-500':
        res.writeHead(500, 'Node Overloaded', { 'content-type': 'text/plain' })
        return res.end('overloaded')
      case 'throttle':
        if (throttled < node.throttleTimes) {
          throttled++
          res.writeHead(429, 'Too Many Requests', { 'retry-after': node.retryAfter })
          return res.end()
        }
        break
      case 'non-json':
        res.writeHead(200, { 'content-type': 'application/json' })
        return res.end('this is not json')
      case 'html':
        res.writeHead(200, { 'content-type': 'text/html' })
        return res.end('<!doctype html><html><body>Welcome to nginx!</body></html>')
      case 'wrong-id':
        return json(200, { jsonrpc: '2.0', id: 987654, result: '0x1' })
      case 'no-result-no-error':
        return json(200, { jsonrpc: '2.0', id: first.id })
      case 'revert':
        return json(200, {
          jsonrpc: '2.0',
          id: first.id,
          error: { code: 3, message: 'execution reverted: not allowed', data: '0x' },
        })
      case 'ok':
        break
    }
    json(200, Array.isArray(body) ? body.map(answerFor) : answerFor(body))
  })
  node.url = server.url
  node.close = server.close
  return node
}
