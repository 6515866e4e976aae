import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startAnvil, type Anvil } from '@portico/test-kit/anvil'
import { nft721Abi, token20Abi } from '@portico/test-kit/wallet-tokens'
import { databaseKinds, signedIn, startSession, testApp } from '../../test/helpers.ts'
import { rpcTestConfig } from '../../test/rpc.ts'
import { deployTokens, indexConfig } from '../../test/addresses.ts'

// A reorg (anvil snapshot and revert) drops transfers and others replace them: the balances and
// holdings stay those the contracts answer.

describe.each(databaseKinds())('the address index through a reorg on %s', (kind) => {
  let anvil: Anvil
  beforeAll(async () => {
    anvil = await startAnvil()
  })
  afterAll(() => anvil.stop())

  it('drops the replaced blocks and keeps balances exact', async () => {
    const { first, token, nft, send, testClient } = await deployTokens(anvil.url)
    const user = first.account.address
    const { app } = await testApp(kind, {
      rpc: rpcTestConfig({ 31337: [anvil.url] }),
      addresses: indexConfig(),
    })
    const services = app.services
    await startSession(services.database.db, { address: user })
    const other = (await signedIn(app)).user.address!
    await services.addressIndex.add(31337, other, 'watch')
    const e20 = (fn: string, args: unknown[]) => send(first, token, token20Abi, fn, args)
    const e721 = (fn: string, args: unknown[]) => send(first, nft, nft721Abi, fn, args)
    await e20('mint', [user, 2n ** 130n])
    await e721('mint', [user, 2n ** 140n])
    const caughtUp = async () => {
      const head = (await first.getBlockNumber({ cacheTime: 0 })).toString()
      const all = await Promise.all(
        [user, other].map((a) => services.addressIndex.progress(31337, a)),
      )
      return all.every((p) => p.status === 'SYNCED' && p.head === head)
    }
    const state = async () => ({
      user: (await services.addressReads.balances(31337, user))[0]?.balance,
      other: (await services.addressReads.balances(31337, other))[0]?.balance,
      otherNfts: (await services.addressReads.nfts(31337, other)).result.map((n) => n.token_id),
    })
    await expect.poll(caughtUp, { timeout: 30_000, interval: 50 }).toBe(true)
    const snapshot = await testClient.snapshot()
    await e20('transfer', [other, 1000n])
    await e721('transferFrom', [user, other, 2n ** 140n])
    await expect.poll(caughtUp, { timeout: 30_000, interval: 50 }).toBe(true)
    expect(await state()).toEqual({
      user: (2n ** 130n - 1000n).toString(),
      other: '1000',
      otherNfts: [(2n ** 140n).toString()],
    })
    await testClient.revert({ id: snapshot })
    await testClient.mine({ blocks: 1 })
    await e20('transfer', [other, 77n])
    await testClient.mine({ blocks: 2 })
    await expect.poll(caughtUp, { timeout: 30_000, interval: 50 }).toBe(true)
    expect(await state()).toEqual({
      user: (2n ** 130n - 77n).toString(),
      other: '77',
      otherNfts: [],
    })
    const transfers = await services.addressReads.tokenTransfers(31337, other)
    expect(transfers.result.map((t) => t.value)).toEqual(['77'])
  })
})
