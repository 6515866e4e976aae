import { createRequire } from 'node:module'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { getAddress, type AbiEvent } from 'viem'
import { startAnvil, type Anvil } from '@portico/test-kit/anvil'
import { emitterAbi } from '@portico/test-kit/emitter'
import { loadConfig } from '../config/server.ts'
import { databaseKinds } from '../../test/helpers.ts'
import { keepOnLoopback, listeningApp, type ListeningApp } from '../../test/compat.ts'
import { rpcTestConfig } from '../../test/rpc.ts'
import { deployEmitter } from '../../test/sync.ts'

// A Moralis v1 app moved whole: its cloud folder (test/fixtures/cloud-moralis, plain scripts on
// the global `Moralis`: afterSave on a synced class keeping a derived class of balances with
// Moralis.Query, save and destroy; a function its client calls; a job) loaded by CLOUD_CODE;
// its events registered by the real moralis-v1 client's `Cloud.run('watchContractEvent', …,
// { useMasterKey: true })`; the contract played on anvil; the derived class read with the client
// and a live subscription.

const require = createRequire(import.meta.url)
keepOnLoopback('moralis-v1/lib/node/RESTController.js')
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the v1 SDK ships loose types
const Moralis = require('moralis-v1/node') as any
const MASTER_KEY = 'moralis-cloud-master-key-0123456789'
const CLOUD = path.resolve(import.meta.dirname, '../../test/fixtures/cloud-moralis')
const transfer = emitterAbi.find(
  (item) => item.type === 'event' && item.name === 'Transfer',
) as AbiEvent
const alice = '0x00000000000000000000000000000000000000a1'
const bob = '0x00000000000000000000000000000000000000b1'

describe.each(databaseKinds())('a Moralis v1 app with its cloud code on %s', (kind) => {
  let anvil: Anvil
  let server: ListeningApp
  let emitter: Awaited<ReturnType<typeof deployEmitter>>

  beforeAll(async () => {
    anvil = await startAnvil()
    emitter = await deployEmitter(anvil.url)
    await emitter.send('mint', [getAddress(alice), 5n])
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
    await Moralis.LiveQuery.close().catch(() => {})
    Moralis.CoreManager.set('LIVEQUERY_SERVER_URL', null)
    Moralis.CoreManager.getLiveQueryController()._clearCachedDefaultClient()
    await server?.close()
    await anvil?.stop()
  })

  const balances = async () => {
    const rows = await new Moralis.Query('Balance').ascending('address').find()
    return Object.fromEntries(
      rows.map((row: { get(k: string): string }) => [row.get('address'), row.get('amount')]),
    )
  }

  it('keeps the derived class exact from the synced events, live too', async () => {
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
    await expect.poll(balances, { timeout: 30_000 }).toEqual({ [alice]: '5' })

    const live = await new Moralis.Query('Balance').equalTo('address', alice).subscribe()
    const updated = new Promise<string>((resolve) =>
      live.on('update', (row: { get(k: string): string }) => resolve(row.get('amount'))),
    )
    await emitter.send('mint', [getAddress(alice), 7n])
    await emitter.send('mint', [getAddress(bob), 2n ** 200n])
    expect(await updated).toBe('12')
    await live.unsubscribe()
    await expect
      .poll(balances, { timeout: 30_000 })
      .toEqual({ [alice]: '12', [bob]: (2n ** 200n).toString() })
    // The client calls the app's function; what it reads is the derived class.
    expect(await Moralis.Cloud.run('balanceOf', { address: alice.toUpperCase() })).toBe('12')
  })

  it('runs the job that rebuilds the class, and answers hosted-only calls clearly', async () => {
    const started = await fetch(`${server.serverUrl}/jobs/recount`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-parse-application-id': 'portico',
        'x-parse-master-key': MASTER_KEY,
      },
      body: '{}',
    })
    const jobId = started.headers.get('x-parse-job-status-id')
    expect(jobId).toBeTruthy()
    await expect
      .poll(
        async () => {
          const run = await new Moralis.Query('_JobStatus').get(jobId, { useMasterKey: true })
          return [run.get('status'), run.get('message')]
        },
        { timeout: 30_000 },
      )
      .toEqual(['succeeded', '2 balances'])
    expect(await balances()).toEqual({ [alice]: '12', [bob]: (2n ** 200n).toString() })

    // Moralis.Web3API answers from the chain's node, as functions/<name> does for clients.
    const wei = await emitter.wallet.getBalance({ address: getAddress(alice) })
    expect(await Moralis.Cloud.run('nativeBalance', { address: alice, chain: '0x7a69' })).toEqual({
      balance: String(wei),
    })
    // "eth" (the default) is chain 1 here, which has no node.
    await expect(Moralis.Cloud.run('nativeBalance', { address: alice })).rejects.toMatchObject({
      code: 141,
      message: expect.stringContaining('Chain eth (id 1) is not served by this server'),
    })
    const lines = server.app.services.cloud.logs.recent({ level: 'warn' })
    expect(lines.map((line) => line.message)).toContain(
      "Moralis.settings.setAPIRateLimit is a setting of Moralis' hosted servers: ignored on Portico.",
    )
  })
})
