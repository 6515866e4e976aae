import { UnexpectedRpcResponseError } from '../errors/rpc.ts'

/** The JSON-RPC 2.0 request shape viem sends (`{ jsonrpc, id, method, params }`). */
export interface JsonRpcRequest {
  jsonrpc: '2.0'
  id: number | string
  method: string
  params?: unknown
}

export interface JsonRpcErrorObject {
  code: number
  message: string
  data?: unknown
}

export type JsonRpcResponse =
  | { jsonrpc: '2.0'; id: number | string | null; result: unknown }
  | { jsonrpc: '2.0'; id: number | string | null; error: JsonRpcErrorObject }

function isErrorObject(value: unknown): value is JsonRpcErrorObject {
  const error = value as JsonRpcErrorObject | null
  return (
    typeof error === 'object' &&
    error !== null &&
    Number.isInteger(error.code) &&
    typeof error.message === 'string'
  )
}

/** A JSON-RPC 2.0 answer object with exactly one of `result` / `error` (the id is checked by the caller). */
export function isResponseObject(value: unknown): value is JsonRpcResponse {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false
  const answer = value as Record<string, unknown>
  if (answer.jsonrpc !== '2.0') return false
  const hasResult = 'result' in answer
  const hasError = 'error' in answer
  if (hasResult === hasError) return false
  return hasResult || isErrorObject(answer.error)
}

// A server that could not read the request at all answers with id null (JSON-RPC 2.0 section 5).
function isRequestLevelError(value: unknown): boolean {
  return isResponseObject(value) && value.id === null && 'error' in value
}

function unexpected(details: string): UnexpectedRpcResponseError {
  return new UnexpectedRpcResponseError({ details })
}

/**
 * Checks a node's answer against the request it answers, strictly: a single request needs one
 * answer object with the same id; a batch needs an array answering every id exactly once (in any
 * order). Returns the parsed answer; throws `UnexpectedRpcResponseError` otherwise.
 */
export function validateRpcAnswer(
  request: JsonRpcRequest | JsonRpcRequest[],
  text: string,
): unknown {
  let answer: unknown
  try {
    answer = JSON.parse(text)
  } catch (cause) {
    throw new UnexpectedRpcResponseError({ cause, details: 'The answer is not JSON.' })
  }
  if (!Array.isArray(request)) {
    if (!isResponseObject(answer))
      throw unexpected('The answer is not a JSON-RPC 2.0 response object.')
    if (answer.id !== request.id && !isRequestLevelError(answer)) {
      throw unexpected(
        `The answer's id ${JSON.stringify(answer.id)} does not match the request's id.`,
      )
    }
    return answer
  }
  // Some nodes (geth) reject a whole batch with one id-null error, bare or in a one-element array.
  if (isRequestLevelError(answer)) return answer
  if (Array.isArray(answer) && answer.length === 1 && isRequestLevelError(answer[0])) return answer
  if (!Array.isArray(answer)) throw unexpected('A batch request needs an array answer.')
  const pending = new Set(request.map((call) => call.id))
  for (const item of answer) {
    if (!isResponseObject(item))
      throw unexpected('A batch answer holds something that is not a JSON-RPC response.')
    if (item.id === null || !pending.delete(item.id)) {
      throw unexpected(
        `The batch answer's id ${JSON.stringify(item.id)} matches no pending request.`,
      )
    }
  }
  if (pending.size)
    throw unexpected(`The batch answer misses ${pending.size} of ${request.length} requests.`)
  return answer
}
