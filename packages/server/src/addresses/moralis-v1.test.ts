import fs from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { startAnvil, type Anvil } from '@portico/test-kit/anvil'
import { nft721Abi, token20Abi } from '@portico/test-kit/wallet-tokens'
import { databaseKinds } from '../../test/helpers.ts'
import { keepOnLoopback, listeningApp, type ListeningApp } from '../../test/compat.ts'
import { rpcTestConfig } from '../../test/rpc.ts'
import { deployTokens, indexConfig } from '../../test/addresses.ts'

// A v1 app reading its signed-in user's wallet as it read Moralis' address-sync classes: the
// real moralis-v1 client signs in (the wallet is indexed from then on), queries and subscribes
// to EthTokenTransfers and EthNFTOwners through the mount, sees a row written unconfirmed and
// flipped to confirmed in place, and cannot write the classes.

const require = createRequire(import.meta.url)
keepOnLoopback('moralis-v1/lib/node/RESTController.js')
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the v1 SDK ships loose types
const Moralis = require('moralis-v1/node') as any

// The README's example of reading the classes, run as written.
const readme = fs.readFileSync(
  path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../README.md'),
  'utf8',
)
const example = /<!-- address-index-test: query -->\n```js\n([\s\S]*?)```/.exec(readme)?.[1]
const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor as new (
  ...args: string[]
) => (...values: unknown[]) => Promise<unknown>

interface Row {
  id: string
  get(key: string): unknown
  set(key: string, value: unknown): void
}

describe.each(databaseKinds())('moralis-v1 on the address classes on %s', (kind) => {
  let anvil: Anvil
  let server: ListeningApp
  let chain: Awaited<ReturnType<typeof deployTokens>>
  const key = generatePrivateKey()
  const wallet = privateKeyToAccount(key).address.toLowerCase()
  beforeAll(async () => {
    anvil = await startAnvil()
    chain = await deployTokens(anvil.url)
    server = await listeningApp(kind, {
      rpc: rpcTestConfig({ 31337: [anvil.url] }),
      // Two confirmations: a row at the head is unconfirmed until the next block.
      addresses: indexConfig({
        chains: new Map([
          [
            31337,
            {
              chainId: 31337,
              startBlock: 0n,
              confirmations: 2,
              everyAddress: false,
              native: 'blocks',
            },
          ],
        ]),
      }),
    })
    Moralis.User.enableUnsafeCurrentUser()
    await Moralis.start({ serverUrl: server.serverUrl, appId: 'portico' })
    await Moralis.authenticate({
      provider: 'network',
      urls: { 1: 'http://127.0.0.1:9' },
      chainId: 1,
      privateKey: key,
    })
  })
  afterAll(async () => {
    await Moralis.LiveQuery.close().catch(() => {})
    await Moralis.User.logOut().catch(() => {})
    Moralis.CoreManager.set('LIVEQUERY_SERVER_URL', null)
    Moralis.CoreManager.getLiveQueryController()._clearCachedDefaultClient()
    await anvil.stop()
  })

  it('queries and subscribes to the signed-in wallet’s transfers and NFTs', async () => {
    const { first, token, nft, send, testClient } = chain
    await send(first, token, token20Abi, 'mint', [wallet, 2n ** 200n + 1n])
    const transfers = new Moralis.Query('EthTokenTransfers')
      .equalTo('to_address', wallet)
      .descending('block_number')
    await expect.poll(async () => (await transfers.find()).length, { timeout: 30_000 }).toBe(1)
    const [row] = (await transfers.find()) as Row[]
    expect(row!.get('value')).toBe((2n ** 200n + 1n).toString())
    expect(row!.get('token_address')).toBe(token.toLowerCase())
    expect(row!.get('from_address')).toBe('0x0000000000000000000000000000000000000000')
    expect(row!.get('block_timestamp')).toBeInstanceOf(Date)
    expect(typeof row!.get('block_number')).toBe('number')
    // Unconfirmed at the head; confirmed in place one block later.
    expect(row!.get('confirmed')).toBe(false)
    await testClient.mine({ blocks: 1 })
    await expect
      .poll(async () => ((await transfers.find()) as Row[])[0]!.get('confirmed'), {
        timeout: 30_000,
      })
      .toBe(true)
    expect(((await transfers.find()) as Row[])[0]!.id).toBe(row!.id)

    const subscription = await new Moralis.Query('EthTokenTransfers')
      .equalTo('to_address', wallet)
      .subscribe()
    const seen: [string, unknown, unknown][] = []
    subscription.on('create', (object: Row) =>
      seen.push(['create', object.get('value'), object.get('confirmed')]),
    )
    subscription.on('update', (object: Row) =>
      seen.push(['update', object.get('value'), object.get('confirmed')]),
    )
    const owners = await new Moralis.Query('EthNFTOwners').equalTo('owner_of', wallet).subscribe()
    const owned: Row[] = []
    owners.on('create', (object: Row) => owned.push(object))

    await send(first, token, token20Abi, 'mint', [wallet, 42n])
    await expect.poll(() => seen, { timeout: 30_000 }).toEqual([['create', '42', false]])
    await testClient.mine({ blocks: 1 })
    await expect
      .poll(() => seen, { timeout: 30_000 })
      .toEqual([
        ['create', '42', false],
        ['update', '42', true],
      ])

    await send(first, nft, nft721Abi, 'mint', [wallet, 2n ** 130n])
    await expect.poll(() => owned.length, { timeout: 30_000 }).toBe(1)
    expect(owned[0]!.get('token_id')).toBe((2n ** 130n).toString())
    expect(owned[0]!.get('token_uri')).toBe(`ipfs://nft/${2n ** 130n}`)
    expect(owned[0]!.get('contract_type')).toBe('ERC721')
    expect(owned[0]!.get('amount')).toBe('1')
    const [held] = (await new Moralis.Query('EthNFTOwners')
      .equalTo('owner_of', wallet)
      .find()) as Row[]
    expect(held!.get('symbol')).toBe('TNFT')
    await subscription.unsubscribe()
    await owners.unsubscribe()

    // No client writes these classes.
    const Forged = Moralis.Object.extend('EthTokenTransfers')
    await expect(new Forged({ to_address: wallet, value: '1' }).save()).rejects.toMatchObject({
      code: 119,
    })
    held!.set('amount', '5')
    await expect((held as unknown as { save(): Promise<void> }).save()).rejects.toMatchObject({
      code: 119,
    })
    // Native sends, found by scanning blocks here, as EthTransactions rows with receipt fields.
    const sent = await first.sendTransaction({ to: wallet as `0x${string}`, value: 2n ** 60n })
    await first.waitForTransactionReceipt({ hash: sent })
    const received = new Moralis.Query('EthTransactions').equalTo('to_address', wallet)
    await expect.poll(async () => (await received.find()).length, { timeout: 30_000 }).toBe(1)
    const [tx] = (await received.find()) as Row[]
    expect(tx!.get('hash')).toBe(sent.toLowerCase())
    expect(tx!.get('value')).toBe((2n ** 60n).toString())
    expect(tx!.get('from_address')).toBe(first.account.address.toLowerCase())
    expect(tx!.get('receipt_gas_used')).toBe(21000)
    expect(tx!.get('receipt_status')).toBe(1)
    const balances = await new Moralis.Query('EthTokenBalance').equalTo('address', wallet).find()
    expect(balances.map((b: Row) => b.get('balance'))).toEqual([(2n ** 200n + 43n).toString()])

    expect(example).toBeDefined()
    const read = (await new AsyncFunction(
      'Moralis',
      `${example!}\nreturn { transfers, balances, nfts }`,
    )(Moralis)) as Record<'transfers' | 'balances' | 'nfts', Row[]>
    expect(read.transfers.map((t) => t.get('value'))).toEqual(['42', (2n ** 200n + 1n).toString()])
    expect(read.balances.map((b) => b.get('symbol'))).toEqual(['TT'])
    expect(read.nfts.map((n) => n.get('token_id'))).toEqual([(2n ** 130n).toString()])
  })
})
