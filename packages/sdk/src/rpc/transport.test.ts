import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { BaseError as ViemBaseError, ExecutionRevertedError, TimeoutError } from 'viem'
import { ErrorResponseError, NoResponseError, UnexpectedRpcResponseError } from '../errors/rpc.ts'
import { startAnvil, type Anvil } from '@portico/test-kit/anvil'
import {
  startMisbehavingNode,
  type Behaviour,
  type MisbehavingNode,
} from '@portico/test-kit/misbehaving-node'
import { connectNode, type ConnectNodeParameters } from './connect-node.ts'
import { throttleDelay } from './fetch.ts'

let anvil: Anvil
const nodes: MisbehavingNode[] = []
beforeAll(async () => {
  anvil = await startAnvil()
})
afterAll(async () => {
  await anvil?.stop()
})
afterEach(async () => {
  await Promise.all(nodes.splice(0).map((node) => node.close()))
})

async function node(behaviour: Behaviour): Promise<MisbehavingNode> {
  const started = await startMisbehavingNode(behaviour)
  nodes.push(started)
  return started
}

function client(urls: string[], overrides: Partial<ConnectNodeParameters> = {}) {
  return connectNode({ chainId: 31337, urls: { 31337: urls }, timeout: 2_000, ...overrides })
}

async function failure(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise
  } catch (error) {
    return error as Error
  }
  throw new Error('expected the call to fail')
}

describe('catalogue errors from real HTTP exchanges', () => {
  it('no answer within the time-out → No response', async () => {
    const bad = await node('no-answer')
    const error = await failure(client([bad.url], { timeout: 300 }).getBlockNumber())
    expect(error).toBeInstanceOf(NoResponseError)
    expect((error as NoResponseError).shortMessage).toBe('No response')
    expect((error as NoResponseError).walk((e) => e instanceof TimeoutError)).toBeInstanceOf(
      TimeoutError,
    )
  })

  it('socket closed without an answer → No response', async () => {
    const bad = await node('destroy')
    const error = await failure(client([bad.url]).getBlockNumber())
    expect(error).toBeInstanceOf(NoResponseError)
    expect(error.name).toBe('NoResponseError')
  })

  it('nothing listening → No response', async () => {
    const error = await failure(client(['http://127.0.0.1:9']).getBlockNumber())
    expect(error).toBeInstanceOf(NoResponseError)
  })

  it('500 with a status text → Error response [500] <status text>', async () => {
    const bad = await node('status-500')
    const error = await failure(client([bad.url]).getBlockNumber())
    expect(error).toBeInstanceOf(ErrorResponseError)
    expect((error as ErrorResponseError).shortMessage).toBe('Error response [500] Node Overloaded')
    expect((error as ErrorResponseError).status).toBe(500)
    expect(bad.requests).toHaveLength(1) // a 500 is not retried on the same node
  })

  it('429 is retried honouring Retry-After, then answered', async () => {
    const throttling = await node('throttle')
    throttling.throttleTimes = 2
    throttling.retryAfter = new Date(Date.now() - 1000).toUTCString() // an HTTP date, already past
    expect(await client([throttling.url]).getBlockNumber()).toBe(42n)
    expect(throttling.requests).toHaveLength(3)
  })

  it('429 beyond the retry budget → Error response [429] Too Many Requests', async () => {
    const throttling = await node('throttle')
    throttling.retryAfter = '0'
    const error = await failure(client([throttling.url], { retryCount: 3 }).getBlockNumber())
    expect((error as ErrorResponseError).shortMessage).toBe(
      'Error response [429] Too Many Requests',
    )
    expect(throttling.requests).toHaveLength(4)
  })

  it.each(['non-json', 'html', 'wrong-id', 'no-result-no-error'] as const)(
    '%s → Received unexpected JSON-RPC response',
    async (behaviour) => {
      const bad = await node(behaviour)
      const error = await failure(client([bad.url]).getBlockNumber())
      expect(error).toBeInstanceOf(UnexpectedRpcResponseError)
      expect((error as UnexpectedRpcResponseError).shortMessage).toBe(
        'Received unexpected JSON-RPC response',
      )
    },
  )
})

describe('failover', () => {
  it.each(['destroy', 'status-500', 'non-json', 'html', 'wrong-id', 'no-result-no-error'] as const)(
    'a first node answering %s fails over to a healthy second one',
    async (behaviour) => {
      const bad = await node(behaviour)
      expect(await client([bad.url, anvil.url]).getChainId()).toBe(31337)
      expect(bad.requests).toHaveLength(1)
    },
  )

  it('tries URLs in order and reports the last failure when all fail', async () => {
    const first = await node('status-500')
    const second = await node('html')
    const error = await failure(client([first.url, second.url]).getBlockNumber())
    expect(error).toBeInstanceOf(UnexpectedRpcResponseError)
    expect([first.requests.length, second.requests.length]).toEqual([1, 1])
  })

  it('a JSON-RPC error (revert) reaches the caller as viem’s typed error and does not fail over', async () => {
    const reverting = await node('revert')
    const healthy = await node('ok')
    const error = await failure(
      client([reverting.url, healthy.url]).call({
        to: '0x000000000000000000000000000000000000dEaD',
        data: '0x',
      }),
    )
    expect(error).toBeInstanceOf(ViemBaseError)
    expect(
      (error as ViemBaseError).walk((e) => e instanceof ExecutionRevertedError),
    ).toBeInstanceOf(ExecutionRevertedError)
    expect(healthy.requests).toHaveLength(0)
  })

  it('a real revert on anvil does not fail over either', async () => {
    const healthy = await node('ok')
    // Init code that reverts at once: PUSH1 0 PUSH1 0 REVERT.
    const error = await failure(client([anvil.url, healthy.url]).call({ data: '0x60006000fd' }))
    expect(
      (error as ViemBaseError).walk((e) => e instanceof ExecutionRevertedError),
    ).toBeInstanceOf(ExecutionRevertedError)
    expect(healthy.requests).toHaveLength(0)
  })
})

describe('throttleDelay', () => {
  it('reads Retry-After as seconds or as an HTTP date, else backs off exponentially', () => {
    expect(throttleDelay('2', 0, 150, 30_000)).toBe(2000)
    const inFiveSeconds = new Date(Date.now() + 5000).toUTCString()
    expect(throttleDelay(inFiveSeconds, 0, 150, 30_000)).toBeGreaterThan(3000)
    expect(throttleDelay('Wed, 21 Oct 2015 07:28:00 GMT', 0, 150, 30_000)).toBe(0)
    expect(throttleDelay(null, 0, 150, 30_000)).toBe(150)
    expect(throttleDelay('soon', 3, 150, 30_000)).toBe(1200)
    expect(throttleDelay(null, 20, 150, 30_000)).toBe(30_000)
  })
})
