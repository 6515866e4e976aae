import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify'
import { rpcCodes, rpcError, type JsonRpcAnswer } from './answer.ts'

/**
 * The JSON-RPC error a failed gateway request answers with: whatever goes wrong before or around
 * a call (malformed JSON, a missing key, a rate limit), the client still gets a JSON-RPC error
 * object, never the generic `{ error }` shape and never a stack trace. Status 500 only for the
 * server's own failures.
 */
export function rpcErrorAnswer(
  error: Pick<FastifyError, 'message' | 'code' | 'statusCode' | 'validation'>,
): { status: number; body: JsonRpcAnswer } {
  const status = error.statusCode ?? 500
  const answer = (status: number, code: number, message: string) => ({
    status,
    body: rpcError(null, code, message),
  })
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'invalid_json':
    case 'json_too_deep':
      return answer(400, rpcCodes.parseError, 'Parse error: the body is not valid JSON.')
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return answer(413, rpcCodes.invalidRequest, 'Invalid request: the body is too large.')
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return answer(
        415,
        rpcCodes.invalidRequest,
        'Invalid request: send Content-Type: application/json.',
      )
  }
  if (status === 429) return answer(429, rpcCodes.limitExceeded, `Limit exceeded: ${error.message}`)
  if (status === 401 || status === 403)
    return answer(status, rpcCodes.unauthorized, `Unauthorized: ${error.message}`)
  if (error.validation || (status >= 400 && status < 500))
    return answer(400, rpcCodes.invalidRequest, `Invalid request: ${error.message}`)
  return answer(500, rpcCodes.internal, 'Internal error: try again later.')
}

/** The gateway route's error handler (see `rpcErrorAnswer`). */
export function rpcErrorHandler(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
): FastifyReply {
  const { status, body } = rpcErrorAnswer(error)
  if (status === 500) request.log.error({ err: error }, 'rpc gateway error')
  return reply.status(status).send(body)
}
