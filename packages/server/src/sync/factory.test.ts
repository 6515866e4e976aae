import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createWalletClient, getAddress, http, parseEventLogs, publicActions } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { foundry } from 'viem/chains'
import { anvilAccount, startAnvil, type Anvil } from '@portico/test-kit/anvil'
import { childAbi, factoryAbi, factoryBytecode } from '@portico/test-kit/factory'
import { buildServer } from '../app.ts'
import { databaseKinds, testConfig, testDatabase } from '../../test/helpers.ts'
import { rpcTestConfig } from '../../test/rpc.ts'

// Contracts made by a factory: the sync reads the events of every child the factory's
// ChildCreated names, children made before the start, during the backfill and while it
// follows the head, and knows them again after a restart.

const fixture = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../test/fixtures/factory-module.mjs',
)
const to = getAddress('0x00000000000000000000000000000000000000c4')

describe.each(databaseKinds())('a factory’s children on %s', (kind) => {
  let anvil: Anvil
  beforeAll(async () => {
    anvil = await startAnvil()
  })
  afterAll(async () => {
    await anvil.stop()
  })

  it('are synced from the block that creates them, live, and after a restart', async () => {
    const wallet = createWalletClient({
      account: privateKeyToAccount(anvilAccount.privateKey),
      chain: foundry,
      transport: http(anvil.url),
    }).extend(publicActions)
    const deployed = await wallet.waitForTransactionReceipt({
      hash: await wallet.deployContract({ abi: factoryAbi, bytecode: factoryBytecode }),
    })
    const factory = getAddress(deployed.contractAddress!)
    const create = async () => {
      const receipt = await wallet.waitForTransactionReceipt({
        hash: await wallet.writeContract({
          address: factory,
          abi: factoryAbi,
          functionName: 'create',
        }),
      })
      return getAddress(parseEventLogs({ abi: factoryAbi, logs: receipt.logs })[0]!.args.child)
    }
    const mint = async (child: string, value: bigint) =>
      wallet.waitForTransactionReceipt({
        hash: await wallet.writeContract({
          address: getAddress(child),
          abi: childAbi,
          functionName: 'mint',
          args: [to, value],
        }),
      })
    const first = await create()
    await mint(first, 1n)
    const second = await create()
    await mint(second, 2n)
    await mint(first, 3n)

    process.env.SYNC_FACTORY = factory
    process.env.SYNC_START_BLOCK = String(deployed.blockNumber)
    const database = await testDatabase(kind)
    const start = async () => {
      const app = await buildServer({
        config: testConfig({
          rpc: rpcTestConfig({ 31337: [anvil.url] }),
          functionsModule: fixture,
        }),
        database,
        logger: false,
      })
      await app.ready()
      return app
    }
    const rows = async (app: Awaited<ReturnType<typeof start>>) =>
      (await app.inject('/api/classes/ChildTransfer?order=blockNumber&limit=100'))
        .json()
        .results.map((r: { data: { address: string; value: string } }) => [
          r.data.address,
          r.data.value,
        ])

    const app = await start()
    await expect
      .poll(() => rows(app), { timeout: 20_000 })
      .toEqual([
        [first, '1'],
        [second, '2'],
        [first, '3'],
      ])
    // A child made while the sync follows the head.
    const third = await create()
    await mint(third, 4n)
    await expect
      .poll(async () => (await rows(app)).at(-1), { timeout: 10_000 })
      .toEqual([third, '4'])
    await app.close()

    // After a restart, the children made before it are known again.
    await mint(second, 5n)
    const again = await start()
    await mint(first, 6n)
    await expect
      .poll(async () => (await rows(again)).slice(-2), { timeout: 20_000 })
      .toEqual([
        [second, '5'],
        [first, '6'],
      ])
    expect(await rows(again)).toHaveLength(6)
    await again.close()
    await database.close()
  })
})
