import { withSharedAnswerBudget } from '../http/answer-budget.ts'
import { METHODS, type CompatAnswer, type CompatCall, type Method } from './call.ts'
import { ParseCode, ParseError, toParseError } from './parse-error.ts'

// `POST batch` of the compatibility mount: up to BATCH_MAX_REQUESTS object requests, each
// dispatched as the caller through the mount's own route table, each answered on its own.

/** `POST batch`: each sub-request authorised as the caller, answered on its own. */
export async function runBatch(
  call: CompatCall,
  mount: string,
  dispatch: (call: CompatCall) => Promise<CompatAnswer>,
): Promise<CompatAnswer> {
  const { requests, transaction } = call.params
  if (transaction === true)
    throw new ParseError(
      ParseCode.OPERATION_FORBIDDEN,
      'Batches run request by request here: send them without "transaction".',
    )
  const max = call.services.config.batchMaxRequests
  if (!Array.isArray(requests) || requests.length === 0 || requests.length > max)
    throw new ParseError(ParseCode.INVALID_JSON, `"requests" is a list of 1 to ${max} requests.`)
  const results: unknown[] = []
  await withSharedAnswerBudget(call.services.config.answerMaxBytes, async () => {
    for (const sub of requests as unknown[]) results.push(await runSub(call, sub, mount, dispatch))
  })
  return { body: results }
}

async function runSub(
  call: CompatCall,
  sub: unknown,
  mount: string,
  dispatch: (call: CompatCall) => Promise<CompatAnswer>,
) {
  try {
    const { method, path, body } = (sub ?? {}) as {
      method?: unknown
      path?: unknown
      body?: unknown
    }
    if (typeof method !== 'string' || !METHODS.has(method) || typeof path !== 'string')
      throw new ParseError(ParseCode.INVALID_JSON, 'A batch request has a "method" and a "path".')
    // Clients send the mount in the path (`/server/classes/Item`); REST ones may not.
    const relative = path.startsWith(`${mount}/`)
      ? path.slice(mount.length + 1)
      : path.replace(/^\/+/, '')
    if (!/^classes\/[^/?#]+(\/[^/?#]+)?$/.test(relative))
      throw new ParseError(
        ParseCode.INVALID_JSON,
        'A batch holds object requests (classes/…) only.',
      )
    if (body !== undefined && (body === null || typeof body !== 'object' || Array.isArray(body)))
      throw new ParseError(ParseCode.INVALID_JSON, 'A batch request\'s "body" is an object.')
    const answer = await dispatch({
      ...call,
      method: method as Method,
      path: relative,
      params: (body ?? {}) as Record<string, unknown>,
      bytes: undefined,
    })
    return { success: answer.body }
  } catch (error) {
    const parsed = toParseError(error)
    if (!parsed) throw error
    return { error: { code: parsed.code, error: parsed.message } }
  }
}
