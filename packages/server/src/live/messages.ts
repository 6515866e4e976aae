import {
  liveConnectMessageSchema,
  liveSubscribeMessageSchema,
  liveUnsubscribeMessageSchema,
  type LiveClientMessage,
  type LiveConnectMessage,
  type LiveSubscribeMessage,
  type LiveUnsubscribeMessage,
} from '@portico/sdk/wire'
import { Ajv, type ErrorObject } from 'ajv'
import { HttpError } from '../errors.ts'
import { assertClassName } from '../objects/names.ts'
import { parseWhere } from '../objects/condition.ts'

// A client's message on `/api/live`, checked against the protocol's schemas (the SDK's wire
// module) before anything acts on it. A refused message is answered with an error, and the
// socket stays open.

const ajv = new Ajv({ allErrors: true, allowUnionTypes: true })
const validators = {
  connect: ajv.compile<LiveConnectMessage>(liveConnectMessageSchema),
  subscribe: ajv.compile<LiveSubscribeMessage>(liveSubscribeMessageSchema),
  unsubscribe: ajv.compile<LiveUnsubscribeMessage>(liveUnsubscribeMessageSchema),
}

export interface Refusal {
  code: string
  message: string
  /** Whether the answer names the message's `requestId` (it then refuses that subscription). */
  aboutRequest: boolean
}

/** The message as the protocol describes it, or why it is refused. */
export function checkMessage(
  message: Record<string, unknown>,
): { valid: LiveClientMessage } | { refused: Refusal } {
  const op = message.op
  if (op !== 'connect' && op !== 'subscribe' && op !== 'unsubscribe')
    return refused('Unknown "op": use connect, subscribe or unsubscribe.')
  const validate = validators[op]
  if (validate(message)) return { valid: message }
  return { refused: refusalFor(op, message, validate.errors ?? []) }
}

const refused = (message: string) => ({
  refused: { code: 'invalid_message', message, aboutRequest: false },
})

/** The field an error is about: the property named by its path, or the missing one. */
function fieldOf(error: ErrorObject): string {
  if (error.keyword === 'required') return String(error.params.missingProperty)
  return error.instancePath.split('/')[1] ?? ''
}

function refusalFor(op: string, message: Record<string, unknown>, errors: ErrorObject[]): Refusal {
  const fields = new Set(errors.map(fieldOf))
  // The order in which a subscription's fields have always been checked: its id first.
  if (fields.has('requestId'))
    return {
      code: 'invalid_message',
      message:
        op === 'subscribe'
          ? 'A subscription needs a "requestId".'
          : 'An unsubscribe names the "requestId" of its subscription.',
      aboutRequest: false,
    }
  // A class name or `where` of the wrong type is refused as a query with it is: the checks that
  // queries use throw for any value the schema refuses.
  try {
    if (fields.has('className')) assertClassName(message.className)
    if (fields.has('where')) parseWhere(message.where)
  } catch (error) {
    if (!(error instanceof HttpError)) throw error
    return { code: error.code, message: error.message, aboutRequest: true }
  }
  const [first] = errors
  const field = first ? fieldOf(first) : ''
  return {
    code: 'invalid_message',
    message: `Invalid "${op}" message: ${field ? `"${field}" ` : ''}${first?.message ?? 'refused'}.`,
    aboutRequest: false,
  }
}
