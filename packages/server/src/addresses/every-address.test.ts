import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { getAddress, parseEther } from 'viem'
import { startAnvil, type Anvil } from '@portico/test-kit/anvil'
import { nft721Abi, token20Abi } from '@portico/test-kit/wallet-tokens'
import { databaseKinds, testApp } from '../../test/helpers.ts'
import { rpcTestConfig } from '../../test/rpc.ts'
import { deployTokens, indexConfig, secondAccount } from '../../test/addresses.ts'

// Every-address mode (a small chain's setting): the index keeps every transfer on the chain,
// between addresses no one signed in with or watches, and they read as any indexed address's.

const STRANGER = getAddress('0x00000000000000000000000000000000000000cc')

describe.each(databaseKinds())('the address index in every-address mode on %s', (kind) => {
  let anvil: Anvil
  beforeAll(async () => {
    anvil = await startAnvil()
  })
  afterAll(() => anvil.stop())

  it('indexes transfers between addresses nobody signed in with', async () => {
    const { first, second, token, nft, send } = await deployTokens(anvil.url)
    const { app } = await testApp(kind, {
      rpc: rpcTestConfig({ 31337: [anvil.url] }),
      addresses: indexConfig({
        chains: new Map([
          [
            31337,
            {
              chainId: 31337,
              startBlock: 0n,
              confirmations: 1,
              everyAddress: true,
              native: 'auto',
            },
          ],
        ]),
      }),
    })
    const services = app.services
    const from = secondAccount.address
    await send(first, token, token20Abi, 'mint', [from, 1000n])
    await send(second, token, token20Abi, 'transfer', [STRANGER, 300n])
    await send(first, nft, nft721Abi, 'mint', [from, 9n])
    await send(second, nft, nft721Abi, 'transferFrom', [from, STRANGER, 9n])
    const native = await second.sendTransaction({ to: STRANGER, value: parseEther('0.25') })
    await second.waitForTransactionReceipt({ hash: native })

    const head = (await first.getBlockNumber({ cacheTime: 0 })).toString()
    await expect
      .poll(async () => services.addressIndex.progress(31337, STRANGER), {
        timeout: 30_000,
        interval: 50,
      })
      .toMatchObject({ status: 'SYNCED', head })

    const lower = STRANGER.toLowerCase()
    expect((await services.addressReads.balances(31337, STRANGER)).map((b) => b.balance)).toEqual([
      '300',
    ])
    expect((await services.addressReads.balances(31337, from)).map((b) => b.balance)).toEqual([
      '700',
    ])
    expect(
      (await services.addressReads.nfts(31337, STRANGER)).result.map((n) => n.token_id),
    ).toEqual(['9'])
    expect((await services.addressReads.nfts(31337, from)).result).toEqual([])

    // The v1 classes, as a client reads them.
    const where = (className: string, query: Record<string, unknown>) =>
      app.inject(`/api/classes/${className}?where=${encodeURIComponent(JSON.stringify(query))}`)
    const data = async (className: string, query: Record<string, unknown>) =>
      (await where(className, query)).json().results.map((r: { data: unknown }) => r.data)
    expect(await data('EthTokenTransfers', { to_address: lower })).toEqual([
      expect.objectContaining({
        from_address: from.toLowerCase(),
        token_address: token.toLowerCase(),
        value: '300',
        confirmed: true,
      }),
    ])
    expect(await data('EthNFTTransfers', { to_address: lower })).toEqual([
      expect.objectContaining({ from_address: from.toLowerCase(), token_id: '9', amount: '1' }),
    ])
    expect(await data('EthTokenBalance', { address: lower })).toEqual([
      expect.objectContaining({ token_address: token.toLowerCase(), balance: '300' }),
    ])
    expect(await data('EthNFTOwners', { owner_of: lower })).toEqual([
      expect.objectContaining({ token_address: nft.toLowerCase(), token_id: '9' }),
    ])
    expect(await data('EthTransactions', { to_address: lower })).toEqual([
      expect.objectContaining({
        hash: native.toLowerCase(),
        from_address: from.toLowerCase(),
        value: parseEther('0.25').toString(),
      }),
    ])
  })
})
