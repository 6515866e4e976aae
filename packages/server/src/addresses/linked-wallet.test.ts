import { createRequire } from 'node:module'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseEther, type Hex } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { anvilAccount, startAnvil, type Anvil } from '@portico/test-kit/anvil'
import { nft721Abi, token20Abi } from '@portico/test-kit/wallet-tokens'
import { databaseKinds } from '../../test/helpers.ts'
import { keepOnLoopback, listeningApp, type ListeningApp } from '../../test/compat.ts'
import { rpcTestConfig } from '../../test/rpc.ts'
import { deployTokens, indexConfig } from '../../test/addresses.ts'

// A wallet linked later with the real moralis-v1 client (`Moralis.link`) is indexed from the
// start block, as v1 synced every address of a user: the transfers it received before it was
// linked, its balance and its NFTs appear in the address-sync classes.

const require = createRequire(import.meta.url)
keepOnLoopback('moralis-v1/lib/node/RESTController.js')
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the v1 SDK ships loose types
const Moralis = require('moralis-v1/node') as any

interface Row {
  id: string
  get(key: string): unknown
}

const wallet = (privateKey: Hex = generatePrivateKey()) => ({
  privateKey,
  lower: privateKeyToAccount(privateKey).address.toLowerCase() as Hex,
})
/** The network connector with a private key: it signs locally, no node is asked. */
const network = (w: ReturnType<typeof wallet>) => ({
  provider: 'network',
  urls: { 1: 'http://127.0.0.1:9' },
  chainId: 1,
  privateKey: w.privateKey,
})

describe.each(databaseKinds())('a wallet linked later with moralis-v1 on %s', (kind) => {
  let anvil: Anvil
  let server: ListeningApp
  beforeAll(async () => {
    anvil = await startAnvil()
    server = await listeningApp(kind, {
      rpc: rpcTestConfig({ 31337: [anvil.url] }),
      addresses: indexConfig(),
    })
    Moralis.User.enableUnsafeCurrentUser()
    await Moralis.start({ serverUrl: server.serverUrl, appId: 'portico' })
  })
  afterAll(async () => {
    await Moralis.User.logOut().catch(() => {})
    await anvil.stop()
  })

  it('reads the linked wallet’s earlier transfers, balance and NFTs from the start block', async () => {
    const { first, token, nft, send } = await deployTokens(anvil.url)
    // The deployer signs in: it sends to the second wallet too.
    const [signedIn, later] = [wallet(anvilAccount.privateKey as Hex), wallet()]
    await Moralis.authenticate(network(signedIn))
    const services = server.app.services
    // Before the link: tokens, an NFT and ether to the second wallet, in separate blocks.
    await send(first, token, token20Abi, 'mint', [later.lower, 2n ** 100n])
    await send(first, token, token20Abi, 'mint', [signedIn.lower, 10n])
    // Read already for the first wallet: it counts for the second once that is linked.
    await send(first, token, token20Abi, 'transfer', [later.lower, 4n])
    await send(first, nft, nft721Abi, 'mint', [later.lower, 2n ** 70n])
    const native = await first.sendTransaction({ to: later.lower, value: parseEther('0.5') })
    await first.waitForTransactionReceipt({ hash: native })
    const head = (await first.getBlockNumber({ cacheTime: 0 })).toString()
    await expect
      .poll(() => services.addressIndex.progress(31337, signedIn.lower), {
        timeout: 30_000,
        interval: 50,
      })
      .toMatchObject({ status: 'SYNCED', head })
    // Read past every transfer of the second wallet, and not indexed.
    expect((await services.addressIndex.progress(31337, later.lower)).status).toBe('NOT_INDEXED')
    const transfers = new Moralis.Query('EthTokenTransfers')
      .equalTo('to_address', later.lower)
      .ascending('block_number')
    // Only the transfer from the signed-in wallet is there, and no balance of the second.
    expect(((await transfers.find()) as Row[]).map((r) => r.get('value'))).toEqual(['4'])
    const balanceOf = new Moralis.Query('EthTokenBalance').equalTo('address', later.lower)
    expect(await balanceOf.find()).toEqual([])

    await Moralis.enableWeb3(network(later))
    const user = await Moralis.link(later.lower)
    expect(user.get('accounts')).toEqual([signedIn.lower, later.lower])

    await expect
      .poll(async () => ((await transfers.find()) as Row[]).map((r) => r.get('value')), {
        timeout: 30_000,
        interval: 100,
      })
      .toEqual([(2n ** 100n).toString(), '4'])
    await expect
      .poll(() => services.addressIndex.progress(31337, later.lower), { timeout: 30_000 })
      .toMatchObject({ status: 'SYNCED' })
    const balances = (await balanceOf.find()) as Row[]
    expect(balances.map((b) => [b.get('token_address'), b.get('balance')])).toEqual([
      [token.toLowerCase(), (2n ** 100n + 4n).toString()],
    ])
    const own = (await new Moralis.Query('EthTokenBalance')
      .equalTo('address', signedIn.lower)
      .find()) as Row[]
    expect(own.map((b) => b.get('balance'))).toEqual(['6'])
    const owned = (await new Moralis.Query('EthNFTOwners')
      .equalTo('owner_of', later.lower)
      .find()) as Row[]
    expect(owned.map((n) => [n.get('token_address'), n.get('token_id')])).toEqual([
      [nft.toLowerCase(), (2n ** 70n).toString()],
    ])
    const received = (await new Moralis.Query('EthTransactions')
      .equalTo('to_address', later.lower)
      .find()) as Row[]
    expect(received.map((t) => [t.get('hash'), t.get('value')])).toEqual([
      [native.toLowerCase(), parseEther('0.5').toString()],
    ])
  })
})
