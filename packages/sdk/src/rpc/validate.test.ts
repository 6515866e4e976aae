import { describe, expect, it } from 'vitest'
import { UnexpectedRpcResponseError } from '../errors/rpc.ts'
import { validateRpcAnswer, type JsonRpcRequest } from './validate.ts'

const call = (id: number): JsonRpcRequest => ({
  jsonrpc: '2.0',
  id,
  method: 'eth_blockNumber',
  params: [],
})
const ok = (id: unknown, result: unknown = '0x1') => ({ jsonrpc: '2.0', id, result })

function rejects(request: JsonRpcRequest | JsonRpcRequest[], answer: unknown): void {
  const text = typeof answer === 'string' ? answer : JSON.stringify(answer)
  expect(() => validateRpcAnswer(request, text)).toThrow(UnexpectedRpcResponseError)
}

describe('validateRpcAnswer', () => {
  it('accepts a result (null included) or an error object with the same id', () => {
    expect(validateRpcAnswer(call(1), JSON.stringify(ok(1)))).toEqual(ok(1))
    expect(validateRpcAnswer(call(1), JSON.stringify(ok(1, null)))).toEqual(ok(1, null))
    const error = { jsonrpc: '2.0', id: 1, error: { code: -32000, message: 'nonce too low' } }
    expect(validateRpcAnswer(call(1), JSON.stringify(error))).toEqual(error)
  })

  it('accepts an id-null error for a request the server could not read', () => {
    const parseError = { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } }
    expect(validateRpcAnswer(call(1), JSON.stringify(parseError))).toEqual(parseError)
  })

  it('rejects wrong shapes', () => {
    rejects(call(1), 'not json')
    rejects(call(1), '')
    rejects(call(1), null)
    rejects(call(1), [ok(1)])
    rejects(call(1), ok(2))
    rejects(call(1), ok('1'))
    rejects(call(1), ok(null))
    rejects(call(1), { jsonrpc: '1.0', id: 1, result: '0x1' })
    rejects(call(1), { id: 1, result: '0x1' })
    rejects(call(1), { jsonrpc: '2.0', id: 1 })
    rejects(call(1), { jsonrpc: '2.0', id: 1, result: '0x1', error: { code: 1, message: 'x' } })
    rejects(call(1), { jsonrpc: '2.0', id: 1, error: 'boom' })
    rejects(call(1), { jsonrpc: '2.0', id: 1, error: { code: 1.5, message: 'x' } })
  })

  it('matches batch answers by id in any order', () => {
    const answer = [ok(3), ok(1), ok(2)]
    expect(validateRpcAnswer([call(1), call(2), call(3)], JSON.stringify(answer))).toEqual(answer)
  })

  it('rejects batch answers that miss, repeat or invent ids', () => {
    rejects([call(1), call(2)], [ok(1)])
    rejects([call(1), call(2)], [ok(1), ok(1)])
    rejects([call(1), call(2)], [ok(1), ok(2), ok(3)])
    rejects([call(1), call(2)], [ok(1), { jsonrpc: '2.0', id: 2 }])
    rejects([call(1), call(2)], ok(1))
  })
})
