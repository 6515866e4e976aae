import { describe, expect, it } from 'vitest'
import { encodeAbiParameters, encodeEventTopics, getAddress, parseAbi } from 'viem'
import { LogDecoder } from './decode.ts'
import { LogStream, type RawLog } from './log-stream.ts'

const log = (n: number): RawLog => ({
  address: '0x5fbdb2315678afecb367f032d93f642f64180aa3',
  topics: [`0x${'dd'.repeat(32)}`, `0x${n.toString(16).padStart(64, '0')}`],
  data: `0x${'00'.repeat(32)}`,
  blockHash: `0x${'18'.repeat(32)}`,
  blockNumber: `0x${n.toString(16)}`,
  blockTimestamp: '0x6b07964b',
  transactionHash: `0x${'20'.repeat(32)}`,
  transactionIndex: '0x0',
  logIndex: `0x${n.toString(16)}`,
  removed: false,
})

/** Feeds `text` to a stream in pieces of `size` bytes; the logs handed over, and the end. */
function read(text: string, size: number) {
  const logs: RawLog[] = []
  const stream = new LogStream((l) => logs.push(l))
  const bytes = Buffer.from(text)
  for (let at = 0; at < bytes.length; at += size) stream.push(bytes.subarray(at, at + size))
  return { logs, end: stream.end() }
}

describe('LogStream', () => {
  it('hands over every log of the result whatever the chunks, keys in any order', () => {
    const logs = [1, 2, 3].map(log)
    const answers = [
      JSON.stringify({ jsonrpc: '2.0', id: 7, result: logs }),
      // Another key order, spaces, and a string holding braces and quotes before the list.
      `{ "id" : "a{\\"result\\":[}" , "result" : ${JSON.stringify(logs, null, 2)} , "jsonrpc":"2.0"}`,
    ]
    for (const text of answers)
      for (const size of [1, 2, 7, 64, 100_000]) {
        const { logs: got, end } = read(text, size)
        expect(got, `chunks of ${size}`).toEqual(logs)
        expect(end).toEqual({ logs: true })
      }
  })

  it('reads an error, an empty list and a log with unusual strings', () => {
    expect(
      read('{"jsonrpc":"2.0","id":1,"error":{"code":-32005,"message":"too many"}}', 3).end,
    ).toEqual({ logs: false, result: undefined, error: { code: -32005, message: 'too many' } })
    expect(read('{"jsonrpc":"2.0","id":1,"result":[]}', 5)).toEqual({
      logs: [],
      end: { logs: true },
    })
    const odd = { ...log(1), extra: 'a } b { "c" \\ d' }
    const { logs } = read(JSON.stringify({ id: 1, result: [odd, log(2)] }), 9)
    expect(logs).toEqual([odd, log(2)])
  })

  it('says when an answer ends in the middle of its logs', () => {
    const text = JSON.stringify({ id: 1, result: [log(1)] })
    expect(() => read(text.slice(0, -10), 4).end).toThrow(/middle/)
  })
})

describe('LogDecoder', () => {
  const abi = parseAbi([
    'event Transfer(address indexed from, address indexed to, uint256 value)',
    'event Small(int8 indexed a, uint40 b, bool c, bytes4 d, int256 e)',
    'event Named(string text, uint256 id)',
  ])
  const decoder = new LogDecoder(abi, 1)
  const raw = (eventName: string, args: Record<string, unknown>, data: `0x${string}`) =>
    ({
      ...log(1),
      topics: encodeEventTopics({ abi, eventName, args } as never) as string[],
      data,
    }) as RawLog

  it('reads one-word events straight from the words, as viem decodes them', () => {
    const from = getAddress('0x00000000000000000000000000000000000000aa')
    const transfer = decoder.decode(
      raw(
        'Transfer',
        { from, to: from },
        encodeAbiParameters([{ type: 'uint256' }], [2n ** 256n - 1n]),
      ),
      true,
    )!
    expect(transfer.data).toMatchObject({
      from,
      to: from,
      value: String(2n ** 256n - 1n),
      event: 'Transfer',
    })
    const small = decoder.decode(
      raw(
        'Small',
        { a: -5 },
        encodeAbiParameters(
          [{ type: 'uint40' }, { type: 'bool' }, { type: 'bytes4' }, { type: 'int256' }],
          [2 ** 40 - 1, true, '0xdeadbeef', -(2n ** 255n)],
        ),
      ),
      false,
    )!
    expect(small.data).toMatchObject({
      a: -5,
      b: 2 ** 40 - 1,
      c: true,
      d: '0xdeadbeef',
      e: String(-(2n ** 255n)),
      confirmed: false,
      blockTimestamp: { __type: 'Date', iso: new Date(0x6b07964b * 1000).toISOString() },
    })
    // Other events through viem's decoder; a log of the wrong shape is no row.
    const named = decoder.decode(
      raw('Named', {}, encodeAbiParameters([{ type: 'string' }, { type: 'uint256' }], ['hi', 3n])),
      true,
    )!
    expect(named.data).toMatchObject({ text: 'hi', id: '3' })
    expect(
      decoder.decode({ ...raw('Transfer', { from, to: from }, '0x'), data: '0x00' }, true),
    ).toBeUndefined()
  })
})
