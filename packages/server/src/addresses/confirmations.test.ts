import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startAnvil, type Anvil } from '@portico/test-kit/anvil'
import { token20Abi } from '@portico/test-kit/wallet-tokens'
import { ANY_OWNER } from '../objects/access.ts'
import { databaseKinds, startSession, testApp } from '../../test/helpers.ts'
import { rpcTestConfig } from '../../test/rpc.ts'
import { deployTokens, indexConfig } from '../../test/addresses.ts'

// As in Moralis v1, an address-sync row is written unconfirmed and flipped to confirmed in place
// (the same objectId) once the chain's confirmations are on top of it, so the site's cloud-code
// `afterSave` on the class runs twice for it: confirmed false, then true.

const fixtures = path.resolve(import.meta.dirname, '../../test/fixtures')

describe.each(databaseKinds())('address rows confirmed in place on %s', (kind) => {
  let anvil: Anvil
  beforeAll(async () => {
    anvil = await startAnvil()
  })
  afterAll(() => anvil.stop())

  it('writes a transfer unconfirmed, confirms it after 3 blocks, and tells afterSave twice', async () => {
    const { first, token, send, testClient } = await deployTokens(anvil.url)
    const user = first.account.address
    const { app } = await testApp(kind, {
      rpc: rpcTestConfig({ 31337: [anvil.url] }),
      cloudCode: path.join(fixtures, 'cloud-addresses'),
      addresses: indexConfig({
        chains: new Map([
          [
            31337,
            {
              chainId: 31337,
              startBlock: 0n,
              confirmations: 3,
              everyAddress: false,
              native: 'off',
            },
          ],
        ]),
      }),
    })
    const services = app.services
    await startSession(services.database.db, { address: user })
    const rows = async (className: string) =>
      (
        await services.objects.query(ANY_OWNER, className, {
          where: undefined,
          order: 'createdAt',
          limit: 100,
          skip: 0,
        })
      ).results
    const transfer = async () => (await rows('EthTokenTransfers'))[0]
    const seen = async (row: string) =>
      (await rows('Seen'))
        .filter((object) => object.data.row === row)
        .map((object) => [object.data.what, object.data.confirmed])
    /** Waits until the index has read the chain's head. */
    const readHead = async () => {
      const head = (await first.getBlockNumber({ cacheTime: 0 })).toString()
      await expect
        .poll(async () => (await services.addressIndex.progress(31337, user)).head, {
          timeout: 30_000,
          interval: 50,
        })
        .toBe(head)
    }

    const minted = await send(first, token, token20Abi, 'mint', [user, 5n])
    await expect.poll(transfer, { timeout: 30_000, interval: 50 }).toBeDefined()
    const row = (await transfer())!
    expect(row.data).toMatchObject({
      to_address: user.toLowerCase(),
      value: '5',
      block_number: Number(minted.blockNumber),
      confirmed: false,
    })
    await expect
      .poll(() => seen(row.objectId), { timeout: 30_000, interval: 50 })
      .toEqual([['create', false]])

    // Two blocks in (the transfer's own and one more): not yet.
    await testClient.mine({ blocks: 1 })
    await readHead()
    expect((await transfer())!.data.confirmed).toBe(false)
    expect(await seen(row.objectId)).toEqual([['create', false]])

    // The third: confirmed, the same row, and a second afterSave.
    await testClient.mine({ blocks: 1 })
    await expect
      .poll(async () => (await transfer())!.data.confirmed, { timeout: 30_000, interval: 50 })
      .toBe(true)
    const all = await rows('EthTokenTransfers')
    expect(all.map((object) => object.objectId)).toEqual([row.objectId])
    await expect
      .poll(() => seen(row.objectId), { timeout: 30_000, interval: 50 })
      .toEqual([
        ['create', false],
        ['update', true],
      ])
    // Through /api too, as a client reads it.
    const read = await app.inject(`/api/classes/EthTokenTransfers/${row.objectId}`)
    expect(read.json().data).toMatchObject({ value: '5', confirmed: true })
  })
})
