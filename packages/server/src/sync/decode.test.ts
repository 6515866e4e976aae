import {
  decodeEventLog,
  encodeAbiParameters,
  encodeEventTopics,
  getAddress,
  type AbiEvent,
  type Hex,
} from 'viem'
import { describe, expect, it } from 'vitest'
import { LogDecoder, rowId } from './decode.ts'
import type { RawLog } from './log-stream.ts'

// The one-word decoder against viem's own decoding of the same logs: every static type, indexed
// and not, at its extremes and at random.

const event = {
  type: 'event',
  name: 'Mixed',
  anonymous: false,
  inputs: [
    { name: 'who', type: 'address', indexed: true },
    { name: 'big', type: 'uint256', indexed: true },
    { name: 'signed', type: 'int256', indexed: false },
    { name: 'small', type: 'int8', indexed: false },
    { name: 'mid', type: 'uint48', indexed: false },
    { name: 'wide', type: 'int64', indexed: false },
    { name: 'flag', type: 'bool', indexed: false },
    { name: 'tag', type: 'bytes4', indexed: true },
    { name: 'hash', type: 'bytes32', indexed: false },
  ],
} as const satisfies AbiEvent

const random = (bytes: number) => {
  let n = 0n
  for (let i = 0; i < bytes; i++) n = (n << 8n) | BigInt(Math.floor(Math.random() * 256))
  return n
}
const hex = (bytes: number) =>
  `0x${random(bytes)
    .toString(16)
    .padStart(bytes * 2, '0')}` as Hex
const signed = (bits: number) => BigInt.asIntN(bits, random(bits / 8))

const MAX = 2n ** 256n - 1n
function argsAt(i: number) {
  const edge = i % 4
  return {
    who: getAddress(hex(20)),
    big: edge === 0 ? MAX : edge === 1 ? 0n : random(32),
    signed: edge === 0 ? -(2n ** 255n) : edge === 1 ? 2n ** 255n - 1n : signed(256),
    small: edge === 0 ? -128 : edge === 1 ? 127 : Number(signed(8)),
    mid: edge === 0 ? 2 ** 48 - 1 : Number(random(6)),
    wide: edge === 0 ? -(2n ** 63n) : signed(64),
    flag: i % 2 === 0,
    tag: hex(4),
    hash: hex(32),
  }
}

function logOf(args: ReturnType<typeof argsAt>, i: number): RawLog {
  const topics = encodeEventTopics({ abi: [event], eventName: 'Mixed', args })
  const plain = event.inputs.filter((input) => !input.indexed)
  const data = encodeAbiParameters(plain, plain.map((input) => args[input.name]) as never)
  return {
    address: '0x5fbdb2315678afecb367f032d93f642f64180aa3',
    topics: topics as string[],
    data,
    blockHash: `0x${'ab'.repeat(32)}`,
    blockNumber: '0x10',
    blockTimestamp: '0x6745f000',
    transactionHash: `0x${i.toString(16).padStart(64, '0')}`,
    transactionIndex: '0x0',
    logIndex: `0x${i.toString(16)}`,
  }
}

/** viem's values as a row holds them: integers over 48 bits as decimal text. */
function viemRow(log: RawLog) {
  const { args } = decodeEventLog({
    abi: [event],
    data: log.data as Hex,
    topics: log.topics as [Hex, ...Hex[]],
    strict: true,
  })
  const wide = new Set(['big', 'signed', 'wide'])
  return Object.fromEntries(
    Object.entries(args).map(([key, value]) => [
      key,
      typeof value === 'bigint' ? (wide.has(key) ? value.toString() : Number(value)) : value,
    ]),
  )
}

describe('LogDecoder', () => {
  const decoder = new LogDecoder([event], 1)

  it('reads one-word events exactly as viem decodes them', () => {
    for (let i = 0; i < 400; i++) {
      const log = logOf(argsAt(i), i)
      const row = decoder.decode(log, true)!
      const expected = viemRow(log)
      const got = Object.fromEntries(Object.keys(expected).map((key) => [key, row.data[key]]))
      expect(got).toEqual(expected)
      expect(Object.keys(row.data).slice(0, 9)).toEqual(event.inputs.map((input) => input.name))
      expect(row.id).toBe(rowId(1, log.transactionHash, i))
    }
    const edge = decoder.decode(logOf(argsAt(0), 0), false)!.data
    expect(edge.big).toBe(MAX.toString())
    expect(edge.signed).toBe((-(2n ** 255n)).toString())
    expect(edge.small).toBe(-128)
    expect(edge.wide).toBe((-(2n ** 63n)).toString())
    expect(edge.confirmed).toBe(false)
  })

  it('refuses what strict decoding refuses', () => {
    const log = logOf(argsAt(5), 5)
    expect(decoder.decode({ ...log, topics: log.topics.slice(0, 3) }, true)).toBeUndefined()
    expect(decoder.decode({ ...log, data: `${log.data}00` }, true)).toBeUndefined()
    expect(decoder.decode({ ...log, data: `${log.data.slice(0, -1)}g` }, true)).toBeUndefined()
    const badTopic = [...log.topics]
    badTopic[1] = `0x${'z'.repeat(64)}`
    expect(decoder.decode({ ...log, topics: badTopic }, true)).toBeUndefined()
    // A bool word other than 0 or 1.
    const flagAt = 2 + 64 * 4
    const badFlag = `${log.data.slice(0, flagAt)}${'0'.repeat(63)}2${log.data.slice(flagAt + 64)}`
    expect(decoder.decode({ ...log, data: badFlag }, true)).toBeUndefined()
  })
})
