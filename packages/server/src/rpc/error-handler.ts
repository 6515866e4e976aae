import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify'
import { rpcError } from './answer.ts'
import { rpcCodes } from './gateway.ts'

/**
 * The gateway's own error handler: whatever goes wrong before or around a call (malformed JSON,
 * a missing key, a rate limit), the client still gets a JSON-RPC error object, never the
 * generic `{ error }` shape and never a stack trace.
 */
export function rpcErrorHandler(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
): FastifyReply {
  const status = error.statusCode ?? 500
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'invalid_json':
    case 'json_too_deep':
      return reply
        .status(400)
        .send(rpcError(null, rpcCodes.parseError, 'Parse error: the body is not valid JSON.'))
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return reply
        .status(413)
        .send(rpcError(null, rpcCodes.invalidRequest, 'Invalid request: the body is too large.'))
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return reply
        .status(415)
        .send(
          rpcError(
            null,
            rpcCodes.invalidRequest,
            'Invalid request: send Content-Type: application/json.',
          ),
        )
  }
  if (status === 429) {
    return reply
      .status(429)
      .send(rpcError(null, rpcCodes.limitExceeded, `Limit exceeded: ${error.message}`))
  }
  if (status === 401 || status === 403) {
    return reply
      .status(status)
      .send(rpcError(null, rpcCodes.unauthorized, `Unauthorized: ${error.message}`))
  }
  if (error.validation || (status >= 400 && status < 500)) {
    return reply
      .status(400)
      .send(rpcError(null, rpcCodes.invalidRequest, `Invalid request: ${error.message}`))
  }
  request.log.error({ err: error }, 'rpc gateway error')
  return reply
    .status(500)
    .send(rpcError(null, rpcCodes.internal, 'Internal error: try again later.'))
}
