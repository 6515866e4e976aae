import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FastifyInstance } from 'fastify'
import { getAddress } from 'viem'
import { startAnvil, type Anvil } from '@portico/test-kit/anvil'
import { emitterAbi } from '@portico/test-kit/emitter'
import { databaseKinds, testApp } from '../../test/helpers.ts'
import { rpcTestConfig } from '../../test/rpc.ts'
import { deployEmitter } from '../../test/sync.ts'

// Several syncs at once: two contracts on one chain, one of whose blocks holds 20,000 events
// (an eth_getLogs answer of 12 MB, over what viem's client accepts), and a contract on a second
// chain. Each sync reads through its own client: the large answers neither stop the big sync
// nor fail the small one's calls.

const fixture = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../test/fixtures/several-syncs.mjs',
)
const to = getAddress('0x00000000000000000000000000000000000000f1')

describe.each(databaseKinds())('several syncs on %s', (kind) => {
  let chainA: Anvil
  let chainB: Anvil
  let app: FastifyInstance
  let answerBytes = 0
  beforeAll(async () => {
    chainA = await startAnvil(['--gas-limit', '200000000'])
    chainB = await startAnvil(['--chain-id', '31338'])
    const big = await deployEmitter(chainA.url)
    const small = await deployEmitter(chainA.url)
    const other = await deployEmitter(chainB.url, 31338)
    const hash = await big.wallet.writeContract({
      address: big.address,
      abi: emitterAbi,
      functionName: 'mintMany',
      args: [to, 20_000n, 0n],
      gas: 190_000_000n,
    })
    // Not through viem's receipt: it holds the 20,000 logs, over what viem's client accepts.
    let mined: bigint | null = null
    while (mined === null) mined = (await big.wallet.getTransaction({ hash })).blockNumber
    for (const value of [1n, 2n, 3n]) await small.send('mint', [to, value])
    for (const value of [4n, 5n]) await other.send('mint', [to, value])
    const answer = await fetch(chainA.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'eth_getLogs',
        params: [{ address: big.address, fromBlock: `0x${mined.toString(16)}` }],
      }),
    })
    answerBytes = (await answer.arrayBuffer()).byteLength
    process.env.SYNC_BIG = big.address
    process.env.SYNC_SMALL = small.address
    process.env.SYNC_OTHER = other.address
    ;({ app } = await testApp(kind, {
      rpc: rpcTestConfig({ 31337: [chainA.url], 31338: [chainB.url] }),
      functionsModule: fixture,
    }))
  })
  afterAll(async () => {
    await chainA.stop()
    await chainB.stop()
  })

  it('reads a block whose logs are 12 MB, beside a small sync of the same chain and a sync of another chain', async () => {
    expect(answerBytes).toBeGreaterThan(10 * 2 ** 20)
    const count = async (className: string) =>
      (await app.inject(`/api/classes/${className}?limit=0&count=1`)).json().count as number
    await expect
      .poll(async () => [await count('Big'), await count('Small'), await count('Other')], {
        timeout: 50_000,
        interval: 500,
      })
      .toEqual([20_000, 3, 2])
    await expect
      .poll(() => app.services.syncStatus().map((s) => [s.name, s.chainId, s.mode, s.lastError]))
      .toEqual([
        ['big', 31337, 'following', undefined],
        ['small', 31337, 'following', undefined],
        ['other-chain', 31338, 'following', undefined],
      ])
    const values = (await app.inject('/api/classes/Big?order=-value&limit=2'))
      .json()
      .results.map((r: { data: { value: string } }) => r.data.value)
    expect(values).toEqual(['19999', '19998'])
  })
})
