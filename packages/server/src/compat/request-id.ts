import { createHash } from 'node:crypto'
import type { CompatAnswer, CompatCall } from './call.ts'
import { ParseCode, ParseError } from './parse-error.ts'

/**
 * Parse's idempotency (`X-Parse-Request-Id`, sent by clients with IDEMPOTENCY on): a write whose
 * id was seen is not applied again and answers 159, as Parse Server does. Kept in Portico's
 * idempotency records.
 */
export async function once(
  call: CompatCall,
  requestId: string | undefined,
  run: () => Promise<CompatAnswer>,
): Promise<CompatAnswer> {
  if (!requestId || (call.method !== 'POST' && call.method !== 'PUT')) return run()
  if (requestId.length > 200)
    throw new ParseError(ParseCode.INVALID_JSON, 'X-Parse-Request-Id is at most 200 characters.')
  const current = await call.session()
  const claimed = {
    scope: current ? `user:${current.user.id}` : `anon:${call.request.ip}`,
    key: `parse:${requestId}`,
    requestHash: createHash('sha256')
      .update(`${call.method} ${call.path}\n${JSON.stringify(call.params)}`)
      .digest('hex'),
  }
  if (!(await call.services.idempotency.claim(claimed)))
    throw new ParseError(ParseCode.DUPLICATE_REQUEST, 'Duplicate request')
  try {
    const answer = await run()
    await call.services.idempotency.record(claimed, answer.status ?? 200, answer.body)
    return answer
  } catch (error) {
    // Refused or failed: nothing was applied, so the client's retry may run.
    await call.services.idempotency.release(claimed).catch(() => {})
    throw error
  }
}
