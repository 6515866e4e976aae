import { sendJson, startTestServer } from './http-server.ts'

// A JSON-RPC node in front of a real one (anvil) that refuses `eth_getLogs` over more than
// `maxBlocks` blocks, as hosted providers do, with their error; everything else is forwarded.
// It can also stop answering `eth_getLogs` after a number of calls, as a stuck node does, so a
// test catches a reader midway through a backfill whatever the machine's speed.

export interface LimitedNode {
  url: string
  maxBlocks: number
  /** The getLogs ranges asked for (block counts), refused or not. */
  ranges: { blocks: number; refused: boolean }[]
  /** `eth_getLogs` requests answered before the rest wait for `release()`; unlimited by default. */
  answerLogs: number
  /** Answers the held `eth_getLogs` requests, and every later one. */
  release(): void
  close(): Promise<void>
}

type Call = { jsonrpc: '2.0'; id: unknown; method: string; params?: unknown[] }

export async function startLimitedNode(upstream: string, maxBlocks: number): Promise<LimitedNode> {
  let answered = 0
  let release = () => {}
  let released = new Promise<void>((resolve) => (release = resolve))
  const node: LimitedNode = {
    url: '',
    maxBlocks,
    ranges: [],
    answerLogs: Number.POSITIVE_INFINITY,
    release: () => {
      node.answerLogs = Number.POSITIVE_INFINITY
      release()
      released = Promise.resolve()
    },
    close: async () => {},
  }
  const refusal = (call: Call) => {
    const filter = (call.params?.[0] ?? {}) as { fromBlock?: string; toBlock?: string }
    if (
      call.method !== 'eth_getLogs' ||
      !filter.fromBlock?.startsWith('0x') ||
      !filter.toBlock?.startsWith('0x')
    )
      return undefined
    const blocks = Number(BigInt(filter.toBlock) - BigInt(filter.fromBlock)) + 1
    const refused = blocks > node.maxBlocks
    node.ranges.push({ blocks, refused })
    if (!refused) return undefined
    return {
      jsonrpc: '2.0',
      id: call.id,
      error: { code: -32005, message: `query exceeds max block range ${node.maxBlocks}` },
    }
  }
  const server = await startTestServer(async ({ res, body }) => {
    const parsed = JSON.parse(body.toString()) as Call | Call[]
    const calls = [parsed].flat()
    const answers = new Map<unknown, unknown>()
    const forward = calls.filter((call) => {
      const refused = refusal(call)
      if (refused) answers.set(call.id, refused)
      return !refused
    })
    if (forward.some((call) => call.method === 'eth_getLogs') && answered++ >= node.answerLogs)
      await released
    if (forward.length) {
      const response = await fetch(upstream, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(forward),
      })
      for (const answer of (await response.json()) as { id: unknown }[])
        answers.set(answer.id, answer)
    }
    const out = calls.map((call) => answers.get(call.id))
    sendJson(res, 200, Array.isArray(parsed) ? out : out[0])
  })
  node.url = server.url
  node.close = server.close
  return node
}
