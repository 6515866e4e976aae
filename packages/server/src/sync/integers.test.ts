import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { getAddress } from 'viem'
import { startAnvil, type Anvil } from '@portico/test-kit/anvil'
import { databaseKinds } from '../../test/helpers.ts'
import { listeningApp, type ListeningApp } from '../../test/compat.ts'
import { rpcTestConfig } from '../../test/rpc.ts'
import { deployEmitter } from '../../test/sync.ts'

// A synced class's uint256 values compare and sort as numbers, exactly, through /api and a live
// subscription (the mount's are in moralis-v1.test.ts): as text, "9" > "10000" and a value of
// 78 digits starting with 1 sorts before one of 2 digits starting with 9.

const fixture = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../test/fixtures/sync-module.mjs',
)
const recipient = getAddress('0x00000000000000000000000000000000000000dd')
const small = [1n, 5n, 9n, 10n, 100n]
const past53 = [2n ** 53n + 1n, 2n ** 53n + 2n]
const e30 = Array.from({ length: 5 }, (_, n) => 10n ** 30n + BigInt(n))
const top = Array.from({ length: 5 }, (_, n) => 2n ** 256n - 1n - BigInt(n))
const all = [...small, ...past53, ...e30, ...top].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))

describe.each(databaseKinds())('uint256 values of a synced class on %s', (kind) => {
  let anvil: Anvil
  let server: ListeningApp
  let emitter: Awaited<ReturnType<typeof deployEmitter>>
  beforeAll(async () => {
    anvil = await startAnvil()
    emitter = await deployEmitter(anvil.url)
    for (const value of [...small, ...past53]) await emitter.send('mint', [recipient, value])
    await emitter.send('mintMany', [recipient, 5n, 10n ** 30n])
    await emitter.send('mintMany', [recipient, 5n, 2n ** 256n - 5n])
    process.env.SYNC_ADDRESS = emitter.address
    process.env.SYNC_CONFIRMATIONS = '1'
    process.env.SYNC_START_BLOCK = '0'
    server = await listeningApp(kind, {
      rpc: rpcTestConfig({ 31337: [anvil.url] }),
      functionsModule: fixture,
    })
    const deadline = Date.now() + 20_000
    while ((await values('')).length < all.length) {
      if (Date.now() > deadline) throw new Error('the sync did not write every row')
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  })
  afterAll(async () => {
    await anvil.stop()
  })

  /** The values of the rows `query` selects, in their order. */
  async function values(query: string): Promise<string[]> {
    const answer = await server.app.inject(
      `/api/classes/Activity?${query.includes('limit=') ? '' : 'limit=1000&'}${query}`,
    )
    expect(answer.statusCode, answer.body).toBe(200)
    return answer.json().results.map((r: { data: { value: string } }) => r.data.value)
  }
  const where = (condition: object) => `where=${encodeURIComponent(JSON.stringify(condition))}`
  const strings = (list: bigint[]) => list.map(String)

  it('sorts them as numbers, both ways, and pages through them in that order', async () => {
    expect(await values('order=value')).toEqual(strings(all))
    expect(await values('order=-value')).toEqual(strings([...all].reverse()))
    expect(await values('order=-value&limit=3&skip=2')).toEqual(
      strings([...all].reverse().slice(2, 5)),
    )
  })

  it('compares them as numbers with a decimal string or a number, exactly past 2^53', async () => {
    const above = (bound: bigint) => strings(all.filter((v) => v > bound))
    expect(await values(`${where({ value: { $gt: '9' } })}&order=value`)).toEqual(above(9n))
    expect(await values(`${where({ value: { $gt: 9 } })}&order=value`)).toEqual(above(9n))
    expect(
      await values(`${where({ value: { $gte: String(2n ** 53n + 1n) } })}&order=value`),
    ).toEqual(strings(all.filter((v) => v >= 2n ** 53n + 1n)))
    // 2^53 + 1 and 2^53 + 2 differ though no JavaScript number tells them apart.
    expect(
      await values(where({ value: { $gt: String(2n ** 53n + 1n), $lt: '10' + '0'.repeat(29) } })),
    ).toEqual([String(2n ** 53n + 2n)])
    expect(
      await values(`${where({ value: { $gte: String(10n ** 30n + 2n) } })}&order=value`),
    ).toEqual(strings(all.filter((v) => v >= 10n ** 30n + 2n)))
    expect(await values(where({ value: { $gt: String(2n ** 256n - 3n) } }))).toHaveLength(2)
    expect(await values(where({ value: { $lte: '9.5' } }))).toHaveLength(3)
    // Equality takes the number or its digits.
    expect(await values(where({ value: 5 }))).toEqual(['5'])
    expect(await values(where({ value: { $in: ['0010', String(2n ** 256n - 1n)] } }))).toHaveLength(
      2,
    )
    const count = await server.app.inject(
      `/api/classes/Activity?count=1&limit=0&${where({ value: { $gt: String(10n ** 30n) } })}`,
    )
    expect(count.json().count).toBe(9)
    // A range on them with something that is no number is refused, not compared as text.
    const refused = await server.app.inject(
      `/api/classes/Activity?${where({ value: { $gt: 'abc' } })}`,
    )
    expect(refused.statusCode).toBe(400)
    expect(refused.json().error.code).toBe('invalid_query')
  })

  it('selects new rows for a live subscription by the same numeric comparison', async () => {
    const socket = new WebSocket(`${server.origin.replace('http', 'ws')}/api/live`)
    const events: string[] = []
    socket.on('message', (raw) => {
      const message = JSON.parse(String(raw)) as {
        op: string
        object?: { data: { value: string } }
      }
      if (message.op === 'create') events.push(message.object!.data.value)
    })
    await new Promise((resolve) => socket.once('open', resolve))
    const subscribed = new Promise((resolve) =>
      socket.on('message', (raw) => {
        if (String(raw).includes('"subscribed"')) resolve(undefined)
      }),
    )
    socket.send(JSON.stringify({ op: 'connect' }))
    socket.send(
      JSON.stringify({
        op: 'subscribe',
        requestId: 1,
        className: 'Activity',
        where: { value: { $gt: String(2n ** 53n), $lt: String(2n ** 256n - 1n) } },
      }),
    )
    await subscribed
    for (const value of [7n, 2n ** 53n + 3n, 90n, 10n ** 30n + 9n, 2n ** 256n - 1n])
      await emitter.send('mint', [recipient, value])
    await expect
      .poll(() => events, { timeout: 15_000 })
      .toEqual([String(2n ** 53n + 3n), String(10n ** 30n + 9n)])
    socket.close()
  })
})
