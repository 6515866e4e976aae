// The JSON-RPC 2.0 shapes the gateway speaks, and the strict check of upstream answers:
// an answer counts only if it is a JSON-RPC 2.0 object with the id that was sent and exactly
// one of `result` / `error` (the same rule as the SDK's).

export type JsonRpcId = string | number | null

/** JSON-RPC error codes the gateway answers with (JSON-RPC 2.0, EIP-1474, EIP-1193). */
export const rpcCodes = {
  parseError: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  internal: -32603,
  resourceUnavailable: -32002,
  limitExceeded: -32005,
  unauthorized: 4100,
  chainNotServed: 4901,
} as const

export interface JsonRpcError {
  code: number
  message: string
  data?: unknown
}

export type JsonRpcAnswer =
  | { jsonrpc: '2.0'; id: JsonRpcId; result: unknown }
  | { jsonrpc: '2.0'; id: JsonRpcId; error: JsonRpcError }

export const rpcError = (id: JsonRpcId, code: number, message: string): JsonRpcAnswer => ({
  jsonrpc: '2.0',
  id,
  error: { code, message },
})

function isAnswer(value: unknown): value is JsonRpcAnswer {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false
  const answer = value as Record<string, unknown>
  if (answer.jsonrpc !== '2.0' || 'result' in answer === 'error' in answer) return false
  if ('result' in answer) return true
  const error = answer.error as JsonRpcError | null
  return (
    typeof error === 'object' &&
    error !== null &&
    Number.isInteger(error.code) &&
    typeof error.message === 'string'
  )
}

/**
 * Parses an upstream answer to calls sent with ids 0..count-1 (an object when one call was sent
 * alone, an array for a batch). Returns the answers indexed by those ids, or undefined when the
 * answer is not exactly that.
 */
export function readUpstreamAnswer(
  text: string,
  count: number,
  batch: boolean,
): JsonRpcAnswer[] | undefined {
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    // Not JSON: a wrong shape, which the pool reports (`onFailure`) before trying the next node.
    return undefined
  }
  const items = batch ? parsed : [parsed]
  if (!Array.isArray(items) || items.length !== count) return undefined
  const byId: JsonRpcAnswer[] = new Array(count)
  for (const item of items) {
    if (!isAnswer(item)) return undefined
    const id = item.id
    if (typeof id !== 'number' || !Number.isInteger(id) || id < 0 || id >= count || byId[id])
      return undefined
    byId[id] = item
  }
  return byId
}
