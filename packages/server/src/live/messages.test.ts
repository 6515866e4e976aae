import { describe, expect, it } from 'vitest'
import { checkMessage } from './messages.ts'

// A client's `/api/live` message against the protocol's schemas (@portico/sdk/wire).

describe('checking an /api/live message', () => {
  it('passes the messages the SDK sends', () => {
    for (const message of [
      { op: 'connect' },
      { op: 'connect', token: 'abc' },
      { op: 'subscribe', requestId: 1, className: 'Note' },
      { op: 'subscribe', requestId: 'a', className: 'Note', where: { board: 'b1' } },
      { op: 'unsubscribe', requestId: 1 },
      // Properties the server does not know are ignored.
      { op: 'subscribe', requestId: 2, className: 'Note', since: 5 },
    ])
      expect(checkMessage(message)).toEqual({ valid: message })
  })

  it('refuses an unknown op', () => {
    expect(checkMessage({ op: 'publish', requestId: 1 })).toEqual({
      refused: {
        code: 'invalid_message',
        message: 'Unknown "op": use connect, subscribe or unsubscribe.',
        aboutRequest: false,
      },
    })
    expect(checkMessage({})).toMatchObject({ refused: { code: 'invalid_message' } })
  })

  it('refuses a subscription without a requestId of the protocol types before anything else', () => {
    for (const requestId of [undefined, null, true, { id: 1 }, [1]])
      expect(checkMessage({ op: 'subscribe', requestId, className: 5, where: [] })).toEqual({
        refused: {
          code: 'invalid_message',
          message: 'A subscription needs a "requestId".',
          aboutRequest: false,
        },
      })
    expect(checkMessage({ op: 'unsubscribe' })).toEqual({
      refused: {
        code: 'invalid_message',
        message: 'An unsubscribe names the "requestId" of its subscription.',
        aboutRequest: false,
      },
    })
  })

  it('refuses a class name or where of the wrong type as a query with it is refused', () => {
    expect(checkMessage({ op: 'subscribe', requestId: 1 })).toMatchObject({
      refused: { code: 'invalid_class_name', aboutRequest: true },
    })
    expect(checkMessage({ op: 'subscribe', requestId: 1, className: ['Note'] })).toMatchObject({
      refused: { code: 'invalid_class_name', aboutRequest: true },
    })
    for (const where of [null, [], 'board=b1', 3])
      expect(checkMessage({ op: 'subscribe', requestId: 1, className: 'Note', where })).toEqual({
        refused: {
          code: 'invalid_query',
          message: '"where" must be a JSON object of field constraints.',
          aboutRequest: true,
        },
      })
  })

  it('refuses a connect whose token is not a string, saying which field is wrong', () => {
    expect(checkMessage({ op: 'connect', token: 42 })).toEqual({
      refused: {
        code: 'invalid_message',
        message: 'Invalid "connect" message: "token" must be string.',
        aboutRequest: false,
      },
    })
  })
})
