import net from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FastifyInstance } from 'fastify'
import { testApp } from '../../test/helpers.ts'

// Stalled clients, over real sockets on 127.0.0.1: each time-out closes the connection, and
// the server goes on serving. The clients below would otherwise hold their connection for as
// long as they trickle (8 s).

let app: FastifyInstance
let port: number
beforeAll(async () => {
  ;({ app } = await testApp('pglite', {
    timeouts: { requestMs: 1_500, headersMs: 800, idleMs: 1_000 },
  }))
  await app.listen({ host: '127.0.0.1', port: 0 })
  const address = app.server.address()
  if (!address || typeof address === 'string') throw new Error('not listening')
  port = address.port
})
afterAll(async () => {
  await app?.close()
})

interface Outcome {
  /** Everything the server sent. */
  received: string
  /** ms from connecting until the server closed the connection. */
  closedAfter: number
}

/** Connects, sends `first`, then one byte of `trickle` every 200 ms until the server closes. */
function stalledClient(first: string, trickle = ''): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const started = Date.now()
    const socket = net.connect(port, '127.0.0.1')
    let received = ''
    let sent = 0
    let timer: NodeJS.Timeout | undefined
    const giveUp = setTimeout(() => {
      socket.destroy()
      reject(new Error('the server kept the stalled connection open'))
    }, 8_000)
    socket.on('connect', () => {
      socket.write(first)
      if (trickle) {
        timer = setInterval(() => {
          if (!socket.destroyed) socket.write(trickle[sent++ % trickle.length]!)
        }, 200)
      }
    })
    socket.on('data', (chunk) => (received += chunk.toString()))
    socket.on('error', () => {})
    socket.on('close', () => {
      clearInterval(timer)
      clearTimeout(giveUp)
      resolve({ received, closedAfter: Date.now() - started })
    })
  })
}

async function stillServing(): Promise<number> {
  return (await fetch(`http://127.0.0.1:${port}/api/health`)).status
}

describe('connection time-outs', () => {
  it('a body that trickles in forever is cut off at REQUEST_TIMEOUT_MS with 408', async () => {
    const head =
      'POST /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n' +
      'Content-Length: 10000\r\n\r\n{"subdomain":"'
    const outcome = await stalledClient(head, 'a')
    expect(outcome.received).toMatch(/^HTTP\/1\.1 408/)
    expect(outcome.closedAfter).toBeGreaterThanOrEqual(1_400)
    expect(await stillServing()).toBe(200)
  })

  it('headers that trickle in are cut off at HEADERS_TIMEOUT_MS', async () => {
    const outcome = await stalledClient('GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n', 'X')
    expect(outcome.received).toMatch(/^HTTP\/1\.1 408/)
    expect(outcome.closedAfter).toBeLessThan(1_400)
    expect(await stillServing()).toBe(200)
  })

  it('a connection left silent after its answer is closed at IDLE_TIMEOUT_MS', async () => {
    const outcome = await stalledClient(
      'GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n',
    )
    expect(outcome.received).toMatch(/^HTTP\/1\.1 200/)
    expect(outcome.closedAfter).toBeGreaterThanOrEqual(900)
  })

  it('a connection that never sends a byte is closed too', async () => {
    const outcome = await stalledClient('')
    expect(outcome.received).not.toMatch(/HTTP\/1\.1 200/)
    expect(await stillServing()).toBe(200)
  })
})
