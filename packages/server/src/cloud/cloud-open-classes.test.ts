import { createRequire } from 'node:module'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { getAddress, type AbiEvent } from 'viem'
import { startAnvil, type Anvil } from '@portico/test-kit/anvil'
import { emitterAbi } from '@portico/test-kit/emitter'
import { loadConfig } from '../config/server.ts'
import { ANY_OWNER } from '../objects/access.ts'
import { databaseKinds } from '../../test/helpers.ts'
import { keepOnLoopback, listeningApp, type ListeningApp } from '../../test/compat.ts'
import { rpcTestConfig } from '../../test/rpc.ts'
import { deployEmitter } from '../../test/sync.ts'

// A Moralis v1 app whose cloud code writes as Moralis ran it, on Parse's defaults: the
// `afterSave` of a synced class (registered by the real moralis-v1 client's
// `watchContractEvent` with the master key) creates, finds and destroys objects of a class
// without permissions, with no session and no master key (test/fixtures/cloud-open-classes).
// The contract is played on anvil; a signed-out client reads and changes what the trigger made.

const require = createRequire(import.meta.url)
keepOnLoopback('moralis-v1/lib/node/RESTController.js')
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the v1 SDK ships loose types
const Moralis = require('moralis-v1/node') as any
const MASTER_KEY = 'moralis-open-classes-master-key-0123'
const CLOUD = path.resolve(import.meta.dirname, '../../test/fixtures/cloud-open-classes')
const transfer = emitterAbi.find(
  (item) => item.type === 'event' && item.name === 'Transfer',
) as AbiEvent
const alice = '0x00000000000000000000000000000000000000a7'
const bob = '0x00000000000000000000000000000000000000b7'

describe.each(databaseKinds())('cloud code writing as a visitor on %s', (kind) => {
  let anvil: Anvil
  let server: ListeningApp
  let emitter: Awaited<ReturnType<typeof deployEmitter>>

  beforeAll(async () => {
    anvil = await startAnvil()
    emitter = await deployEmitter(anvil.url)
    server = await listeningApp(kind, {
      rpc: rpcTestConfig({ 31337: [anvil.url] }),
      cloudCode: CLOUD,
      compat: { ...loadConfig({}).compat, masterKey: MASTER_KEY },
    })
    server.app.services.start()
    Moralis.User.enableUnsafeCurrentUser()
    await Moralis.start({ serverUrl: server.serverUrl, appId: 'portico', masterKey: MASTER_KEY })
  })
  afterAll(async () => {
    await server?.close()
    await anvil?.stop()
  })

  /** The `Holder` rows as a signed-out client finds them: address → transaction. */
  const holders = async () => {
    const rows = await new Moralis.Query('Holder').ascending('address').find()
    return Object.fromEntries(
      rows.map((row: { get(k: string): string }) => [row.get('address'), row.get('tx')]),
    )
  }

  it("keeps a class without permissions from a synced class's afterSave, with no session", async () => {
    const answer = await Moralis.Cloud.run(
      'watchContractEvent',
      {
        chainId: '0x7a69',
        address: emitter.address.toLowerCase(),
        topic: 'Transfer(address, address, uint256)',
        abi: transfer,
        tableName: 'Transfers',
        sync_historical: true,
      },
      { useMasterKey: true },
    )
    expect(answer).toEqual({ success: true })
    const first = await emitter.send('mint', [getAddress(alice), 5n])
    await expect.poll(holders, { timeout: 30_000 }).toEqual({ [alice]: first.transactionHash })
    // The next transfer to alice: the trigger finds the old row and destroys it.
    const second = await emitter.send('mint', [getAddress(alice), 1n])
    const third = await emitter.send('mint', [getAddress(bob), 2n])
    await expect
      .poll(holders, { timeout: 30_000 })
      .toEqual({ [alice]: second.transactionHash, [bob]: third.transactionHash })

    // Made by a visitor without an ACL: Parse's public one.
    const { results } = await server.app.services.objects.query(ANY_OWNER, 'Holder', {
      where: undefined,
      limit: 10,
      skip: 0,
    })
    expect(results.map((row) => row.acl)).toEqual([
      { '*': { read: true, write: true } },
      { '*': { read: true, write: true } },
    ])
    // A signed-out client changes one as the trigger could.
    expect(Moralis.User.current()).toBeNull()
    const row = await new Moralis.Query('Holder').equalTo('address', bob).first()
    row.set('note', 'seen')
    await row.save()
    const again = await new Moralis.Query('Holder').get(row.id, { useMasterKey: true })
    expect(again.get('note')).toBe('seen')
  })
})
