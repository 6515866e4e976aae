import net from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { ResponseReader } from './http1-response.ts'
import { PlainHttpUpstream, type PostResult } from './upstream-http.ts'

// The plain-HTTP upstream client against a scripted TCP server: each test decides byte for byte
// what the "node" answers, and how it treats its connections.

interface Script {
  /** Answers the `n`th request (from 0) seen on connection `c` (from 0); nothing to stay silent. */
  answer(request: string, n: number, c: number, socket: net.Socket): string | undefined
}

const servers: net.Server[] = []
const accepted: net.Socket[] = []
const clients: PlainHttpUpstream[] = []
afterEach(async () => {
  for (const client of clients.splice(0)) client.close()
  for (const socket of accepted.splice(0)) socket.destroy()
  await Promise.all(servers.splice(0).map((server) => new Promise((done) => server.close(done))))
})

/** A TCP server that reads whole requests (head and Content-Length body) and runs the script. */
async function scripted(script: Script) {
  const requests: string[] = []
  let connections = 0
  const server = net.createServer((socket) => {
    const c = connections++
    accepted.push(socket)
    let buffer = ''
    let n = 0
    socket.on('data', (chunk) => {
      buffer += chunk.toString('latin1')
      for (;;) {
        const end = buffer.indexOf('\r\n\r\n')
        if (end < 0) return
        const length = Number(/content-length: (\d+)/i.exec(buffer.slice(0, end))?.[1] ?? 0)
        if (buffer.length < end + 4 + length) return
        const request = buffer.slice(0, end + 4 + length)
        buffer = buffer.slice(end + 4 + length)
        requests.push(request)
        const reply = script.answer(request, n++, c, socket)
        if (reply !== undefined && !socket.destroyed) socket.write(reply)
      }
    })
    socket.on('error', () => {})
  })
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as net.AddressInfo
  return { port, requests, connections: () => connections }
}

function client(url: string, maxAnswerBytes = 1024 * 1024) {
  const upstream = new PlainHttpUpstream(new URL(url), maxAnswerBytes)
  clients.push(upstream)
  return upstream
}

const ok = (body: string, extra = '') =>
  `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n${extra}content-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`

const text = (result: PostResult) =>
  result.ok ? { status: result.status, body: result.body.toString() } : result.reason

describe('PlainHttpUpstream', () => {
  it('POSTs the body with its host, path, type, length and the URL credentials, reusing one connection', async () => {
    const node = await scripted({ answer: (_request, n) => ok(`{"n":${n}}`) })
    const upstream = client(`http://us%40er:p%3Ass@127.0.0.1:${node.port}/rpc/v1?key=k`)
    expect(text(await upstream.post('{"a":1}', 2_000))).toEqual({ status: 200, body: '{"n":0}' })
    expect(text(await upstream.post('{"éé":2}', 2_000))).toEqual({ status: 200, body: '{"n":1}' })
    expect(node.connections()).toBe(1)
    const [head, body] = node.requests[1]!.split('\r\n\r\n')
    const lines = head!.split('\r\n')
    expect(lines[0]).toBe('POST /rpc/v1?key=k HTTP/1.1')
    expect(lines).toContain(`host: 127.0.0.1:${node.port}`)
    expect(lines).toContain('content-type: application/json')
    expect(lines).toContain(`content-length: ${Buffer.byteLength('{"éé":2}')}`)
    expect(lines).toContain(`authorization: Basic ${Buffer.from('us@er:p:ss').toString('base64')}`)
    expect(Buffer.from(body!, 'latin1').toString('utf8')).toBe('{"éé":2}')
  })

  it('reads chunked answers sent a byte at a time, with chunk extensions and trailers', async () => {
    const answer =
      'HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n5;ext=1\r\n{"a":\r\nA\r\n"0123456"}\r\n0\r\nx-trailer: y\r\n\r\n'
    const node = await scripted({
      answer: (_request, _n, _c, socket) => {
        let index = 0
        const next = () => {
          if (index < answer.length && !socket.destroyed) {
            socket.write(answer[index++]!)
            setImmediate(next)
          }
        }
        next()
        return undefined
      },
    })
    const upstream = client(`http://127.0.0.1:${node.port}/`)
    expect(text(await upstream.post('{}', 5_000))).toEqual({
      status: 200,
      body: '{"a":"0123456"}',
    })
    // The connection stays usable after a chunked answer.
    expect((await upstream.post('{}', 5_000)).ok).toBe(true)
    expect(node.connections()).toBe(1)
  })

  it('skips interim answers, reads HTTP/1.0 bodies to the end, and opens a new connection after `connection: close`', async () => {
    const node = await scripted({
      answer: (_request, _n, c, socket) => {
        if (c === 0) return `HTTP/1.1 100 Continue\r\n\r\n${ok('"first"', 'connection: close\r\n')}`
        socket.end('HTTP/1.0 200 OK\r\ncontent-type: application/json\r\n\r\n"until the end"')
        return undefined
      },
    })
    const upstream = client(`http://127.0.0.1:${node.port}/`)
    expect(text(await upstream.post('{}', 2_000))).toEqual({ status: 200, body: '"first"' })
    expect(text(await upstream.post('{}', 2_000))).toEqual({ status: 200, body: '"until the end"' })
    expect(node.connections()).toBe(2)
  })

  it('passes error statuses on with Retry-After', async () => {
    const node = await scripted({
      answer: () => 'HTTP/1.1 429 Too Many Requests\r\nRetry-After: 7\r\ncontent-length: 0\r\n\r\n',
    })
    const result = await client(`http://127.0.0.1:${node.port}/`).post('{}', 2_000)
    expect(result).toMatchObject({ ok: true, status: 429, retryAfter: '7' })
  })

  it('sends the body again on a new connection when a reused one was closed before answering', async () => {
    // The first connection answers once, then drops the next request unanswered, as a node does
    // whose keep-alive timeout ends as the request arrives.
    const node = await scripted({
      answer: (_request, n, c, socket) => {
        if (c === 0 && n === 1) {
          socket.destroy()
          return undefined
        }
        return ok(`"c${c}"`)
      },
    })
    const upstream = client(`http://127.0.0.1:${node.port}/`)
    expect(text(await upstream.post('{}', 2_000))).toEqual({ status: 200, body: '"c0"' })
    expect(text(await upstream.post('{}', 2_000))).toEqual({ status: 200, body: '"c1"' })
    expect(node.requests).toHaveLength(3)
  })

  it('does not send twice on a new connection: a fresh one that fails is a failure', async () => {
    const node = await scripted({
      answer: (_request, _n, _c, socket) => {
        socket.destroy()
        return undefined
      },
    })
    const result = await client(`http://127.0.0.1:${node.port}/`).post('{}', 2_000)
    expect(result).toEqual({ ok: false, reason: 'no-response' })
    expect(node.requests).toHaveLength(1)
  })

  it('does not send again once the node began an answer, even an interim one', async () => {
    const node = await scripted({
      answer: (_request, n, _c, socket) => {
        if (n === 0) return ok('"first"')
        socket.write('HTTP/1.1 100 Continue\r\n\r\n')
        setTimeout(() => socket.destroy(), 20)
        return undefined
      },
    })
    const upstream = client(`http://127.0.0.1:${node.port}/`)
    expect((await upstream.post('{}', 2_000)).ok).toBe(true)
    expect((await upstream.post('{}', 2_000)).ok).toBe(false)
    expect(node.requests).toHaveLength(2)
  })

  it('fails without an answer in time, on a refused connection, and on answers that are too large or not HTTP', async () => {
    const silent = await scripted({ answer: () => undefined })
    const started = Date.now()
    expect(await client(`http://127.0.0.1:${silent.port}/`).post('{}', 150)).toEqual({
      ok: false,
      reason: 'no-response',
    })
    expect(Date.now() - started).toBeLessThan(2_000)

    // Closing the client ends the exchanges under way at once.
    const closing = client(`http://127.0.0.1:${silent.port}/`)
    const pending = closing.post('{}', 10_000)
    await new Promise((resolve) => setTimeout(resolve, 50))
    closing.close()
    expect(await pending).toEqual({ ok: false, reason: 'no-response' })

    const closed = await scripted({ answer: () => undefined })
    await new Promise((resolve) => servers.pop()!.close(resolve))
    expect(await client(`http://127.0.0.1:${closed.port}/`).post('{}', 2_000)).toEqual({
      ok: false,
      reason: 'no-response',
    })

    const large = await scripted({ answer: () => ok('x'.repeat(2_000)) })
    expect(await client(`http://127.0.0.1:${large.port}/`, 1_000).post('{}', 2_000)).toEqual({
      ok: false,
      reason: 'too-large',
    })

    const garbage = await scripted({ answer: () => 'SSH-2.0-OpenSSH\r\n\r\n' })
    expect(await client(`http://127.0.0.1:${garbage.port}/`).post('{}', 2_000)).toEqual({
      ok: false,
      reason: 'malformed',
    })
  })
})

describe('ResponseReader', () => {
  const read = (...chunks: string[]) => {
    const reader = new ResponseReader(100)
    for (const chunk of chunks) {
      const result = reader.push(Buffer.from(chunk, 'latin1'))
      if (result) return result
    }
    return reader.end()
  }

  it('refuses framing it cannot trust', () => {
    const malformed = { ok: false, reason: 'malformed' }
    // Two different lengths (a smuggling vector), a coding other than chunked, a bad chunk size,
    // a header line without a name, a cut-off body, an upgrade.
    expect(read('HTTP/1.1 200 OK\r\ncontent-length: 2\r\ncontent-length: 3\r\n\r\n{}')).toEqual(
      malformed,
    )
    expect(read('HTTP/1.1 200 OK\r\ntransfer-encoding: gzip\r\n\r\n{}')).toEqual(malformed)
    expect(read('HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\nzz\r\n')).toEqual(malformed)
    expect(read('HTTP/1.1 200 OK\r\n: x\r\ncontent-length: 0\r\n\r\n')).toEqual(malformed)
    expect(read('HTTP/1.1 200 OK\r\ncontent-length: 5\r\n\r\n{}')).toEqual(malformed)
    expect(read('HTTP/1.1 101 Switching Protocols\r\n\r\n')).toEqual(malformed)
    // A chunked body over the bound is refused as it grows.
    expect(
      read(
        'HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n',
        ...Array.from({ length: 20 }, () => '8\r\n12345678\r\n'),
      ),
    ).toEqual({ ok: false, reason: 'too-large' })
  })

  it('answers with no body for 204, and does not keep a connection that sent more than asked', () => {
    expect(read('HTTP/1.1 204 No Content\r\n\r\n')).toMatchObject({ ok: true, status: 204 })
    expect(read('HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\n{}extra')).toMatchObject({
      ok: true,
      keepAlive: false,
    })
    expect(read('HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\n{}')).toMatchObject({
      ok: true,
      keepAlive: true,
    })
    expect(read('HTTP/1.0 200 OK\r\ncontent-length: 2\r\n\r\n{}')).toMatchObject({
      keepAlive: false,
    })
  })
})
