import type { FastifyBaseLogger } from 'fastify'
import WebSocket from 'ws'

// When a chain has a new block. Over a WebSocket node (`RPC_WS_URL_<chainId>`) the chain's syncs
// subscribe to its new heads (`eth_subscribe`), one subscription per chain in the process that
// writes them, and read a new block the moment it is announced; they still look every `pollMs`
// in case an announcement is lost. Without one, they look every `pollMs`.

/** One sync's view of its chain's new heads. */
export interface HeadWaiter {
  /**
   * Resolves when a head was announced since the last call (at once if one was meanwhile),
   * after `ms` at the latest, or when `signal` aborts.
   */
  next(ms: number, signal: AbortSignal): Promise<void>
}

export interface ChainHeads {
  waiter(): HeadWaiter
  close(): void
}

/** No subscription: each sync looks again after its `pollMs`. */
export function polledHeads(): ChainHeads {
  return { waiter: () => ({ next: (ms, signal) => sleep(ms, signal) }), close() {} }
}

/** New heads of the chain at `url` (ws or wss), by subscription, reconnecting when cut. */
export function subscribedHeads(url: string, log: FastifyBaseLogger, chainId: number): ChainHeads {
  const waiters = new Set<{ announced: boolean; wake?: (() => void) | undefined }>()
  let socket: WebSocket | undefined
  let closed = false
  let retry: NodeJS.Timeout | undefined
  let failures = 0

  const announce = () => {
    for (const waiter of waiters) {
      waiter.announced = true
      waiter.wake?.()
    }
  }
  const connect = () => {
    if (closed) return
    const next = new WebSocket(url, { maxPayload: 16 * 2 ** 20 })
    socket = next
    next.on('open', () => {
      failures = 0
      next.send(
        JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_subscribe', params: ['newHeads'] }),
      )
      // Blocks may have come while the connection was down.
      announce()
    })
    next.on('message', (raw) => {
      const text = String(raw)
      if (text.includes('"eth_subscription"')) announce()
      else if (text.includes('"error"'))
        log.warn(
          { chainId, answer: text.slice(0, 300) },
          'the node refused the new-head subscription',
        )
    })
    next.on('error', (error) =>
      log.warn({ chainId, err: error.message }, 'the new-head connection failed'),
    )
    next.on('close', () => {
      if (closed || socket !== next) return
      failures++
      retry = setTimeout(connect, Math.min(30_000, 500 * 2 ** Math.min(failures, 6)))
    })
  }
  connect()

  return {
    waiter() {
      const state: { announced: boolean; wake?: (() => void) | undefined } = { announced: false }
      waiters.add(state)
      return {
        async next(ms, signal) {
          if (!state.announced && !signal.aborted) {
            await new Promise<void>((resolve) => {
              const done = () => {
                clearTimeout(timer)
                signal.removeEventListener('abort', done)
                state.wake = undefined
                resolve()
              }
              const timer = setTimeout(done, ms)
              signal.addEventListener('abort', done, { once: true })
              state.wake = done
            })
          }
          state.announced = false
        },
      }
    },
    close() {
      closed = true
      clearTimeout(retry)
      socket?.close()
      waiters.clear()
    },
  }
}

export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms)
    function done() {
      clearTimeout(timer)
      signal.removeEventListener('abort', done)
      resolve()
    }
    signal.addEventListener('abort', done, { once: true })
  })
}
