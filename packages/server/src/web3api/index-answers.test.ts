import { createRequire } from 'node:module'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startAnvil, type Anvil } from '@portico/test-kit/anvil'
import { multi1155Abi, nft721Abi, token20Abi } from '@portico/test-kit/wallet-tokens'
import { databaseKinds } from '../../test/helpers.ts'
import { keepOnLoopback, listeningApp, type ListeningApp } from '../../test/compat.ts'
import { rpcTestConfig } from '../../test/rpc.ts'
import { deployTokens, indexConfig, secondAccount } from '../../test/addresses.ts'

// The wallet-wide Web3 API endpoints answered from the address index, called by the real
// moralis-v1 client: a wallet nobody indexed yet is asked about, the answers say SYNCING until
// its history is read, then equal what the contracts' own balanceOf / ownerOf say, paged.

const require = createRequire(import.meta.url)
keepOnLoopback('moralis-v1/lib/node/RESTController.js')
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the v1 SDK ships loose types
const Moralis = require('moralis-v1/node') as any

type V1Page = {
  total: number
  page: number
  page_size: number
  status: string
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- v1 rows, asserted field by field
  result: any[]
  next?: () => Promise<V1Page>
}

async function everyRow(first: V1Page) {
  const rows = [...first.result]
  let page = first
  while (page.next) {
    page = await page.next()
    rows.push(...page.result)
  }
  return rows
}

describe.each(databaseKinds())('the Web3 API from the address index on %s', (kind) => {
  let anvil: Anvil
  let server: ListeningApp
  let chain: Awaited<ReturnType<typeof deployTokens>>
  const wallet = secondAccount.address.toLowerCase() as `0x${string}`
  const account = () => Moralis.Web3API.account
  const on = { chain: '0x7a69', address: secondAccount.address }

  beforeAll(async () => {
    anvil = await startAnvil()
    chain = await deployTokens(anvil.url)
    const { first, second, token, nft, multi, send } = chain
    const me = first.account.address
    // The wallet: tokens above 2^128 in and some out, three cats in and one out, two ERC-1155
    // ids in and part of one out, native value both ways.
    await send(first, token, token20Abi, 'mint', [wallet, 2n ** 200n + 1n])
    await send(second, token, token20Abi, 'transfer', [me, 5n])
    await send(first, token, token20Abi, 'mint', [me, 9n])
    for (const id of [1n, 2n, 3n]) await send(first, nft, nft721Abi, 'mint', [wallet, id])
    await send(first, nft, nft721Abi, 'mint', [me, 4n])
    await send(second, nft, nft721Abi, 'transferFrom', [wallet, me, 2n])
    await send(first, multi, multi1155Abi, 'mint', [wallet, 7n, 2n ** 129n])
    await send(first, multi, multi1155Abi, 'mint', [wallet, 8n, 10n])
    await send(second, multi, multi1155Abi, 'safeTransferFrom', [wallet, me, 8n, 3n, '0x'])
    for (const [from, to] of [
      [first, wallet],
      [second, me],
    ] as const) {
      const hash = await from.sendTransaction({
        to: to as `0x${string}`,
        value: 1000n,
        account: from.account,
        chain: from.chain,
      })
      await from.waitForTransactionReceipt({ hash })
    }
    server = await listeningApp(kind, {
      rpc: rpcTestConfig({ 31337: [anvil.url] }),
      addresses: indexConfig(),
    })
    await Moralis.start({ serverUrl: server.serverUrl, appId: 'portico' })
  })
  afterAll(async () => {
    await server?.close()
    await anvil?.stop()
  })

  it('says SYNCING for a wallet asked about first, then answers what the contracts say, paged', async () => {
    const { first, token, nft, multi } = chain
    const asked = await account().getNFTs({ ...on, limit: 2 })
    expect(asked.status).toBe('SYNCING')
    await expect
      .poll(async () => (await account().getNFTs({ ...on, limit: 2 })).status, { timeout: 30_000 })
      .toBe('SYNCED')

    // Token balances: what balanceOf says, exactly, with the token's name, symbol and decimals.
    const read = (functionName: string, args: unknown[] = []) =>
      first.readContract({ address: token, abi: token20Abi, functionName, args } as never)
    expect(await account().getTokenBalances(on)).toEqual([
      {
        token_address: token.toLowerCase(),
        name: await read('name'),
        symbol: await read('symbol'),
        logo: null,
        thumbnail: null,
        decimals: String(await read('decimals')),
        balance: String(await read('balanceOf', [wallet])),
      },
    ])
    expect(String(await read('balanceOf', [wallet]))).toBe(String(2n ** 200n - 4n))
    expect(await account().getTokenBalances({ ...on, token_addresses: [nft] })).toEqual([])

    // NFTs: two pages of two, following result.next(); owners and amounts as the contracts say.
    const firstPage = await account().getNFTs({ ...on, limit: 2 })
    expect(firstPage).toMatchObject({ total: 4, page: 0, page_size: 2, status: 'SYNCED' })
    const nfts = await everyRow(firstPage)
    const ownerOf = (id: bigint) =>
      first.readContract({ address: nft, abi: nft721Abi, functionName: 'ownerOf', args: [id] })
    const amountOf = (id: bigint) =>
      first.readContract({
        address: multi,
        abi: multi1155Abi,
        functionName: 'balanceOf',
        args: [id, wallet],
      })
    const held = new Map<string, string>()
    for (const id of [1n, 2n, 3n, 4n])
      if ((await ownerOf(id)).toLowerCase() === wallet) held.set(`${nft.toLowerCase()}:${id}`, '1')
    for (const id of [7n, 8n])
      if ((await amountOf(id)) > 0n)
        held.set(`${multi.toLowerCase()}:${id}`, String(await amountOf(id)))
    expect(
      new Map(nfts.map((row) => [`${row.token_address}:${row.token_id}`, row.amount])),
    ).toEqual(held)
    expect(held.get(`${multi.toLowerCase()}:7`)).toBe(String(2n ** 129n))
    const cat = nfts.find((row) => row.token_address === nft.toLowerCase())
    expect(cat).toMatchObject({
      contract_type: 'ERC721',
      owner_of: wallet,
      token_uri: expect.stringMatching(/^ipfs:\/\/nft\//),
      name: 'Test NFT',
    })
    expect(Number(cat.block_number_minted)).toBeGreaterThan(0)
    const only = await account().getNFTs({ ...on, token_addresses: [multi] })
    expect(only.result.map((row: { token_id: string }) => row.token_id)).toEqual(['7', '8'])
    const forContract = await account().getNFTsForContract({
      ...on,
      token_address: nft,
      format: 'hex',
    })
    expect(forContract.result.map((row: { token_id: string }) => row.token_id)).toEqual([
      '0x1',
      '0x3',
    ])

    // Collections: one row per contract the wallet holds a token of, named as the contract
    // says (the ERC-1155 one tells no name), one a page.
    const firstCollections = await account().getWalletNFTCollections({ ...on, limit: 1 })
    expect(firstCollections).toMatchObject({ total: 2, page: 0, page_size: 1, status: 'SYNCED' })
    const catName = (functionName: 'name' | 'symbol') =>
      first.readContract({ address: nft, abi: nft721Abi, functionName })
    const byAddress = (a: { token_address: string }, b: { token_address: string }) =>
      a.token_address < b.token_address ? -1 : 1
    expect((await everyRow(firstCollections)).sort(byAddress)).toEqual(
      [
        {
          token_address: nft.toLowerCase(),
          contract_type: 'ERC721',
          name: await catName('name'),
          symbol: await catName('symbol'),
        },
        { token_address: multi.toLowerCase(), contract_type: 'ERC1155', name: null, symbol: null },
      ].sort(byAddress),
    )

    // Token transfers: every Transfer log naming the wallet, newest first, one row a page.
    const logs = await first.getContractEvents({
      address: token,
      abi: token20Abi,
      eventName: 'Transfer',
      fromBlock: 0n,
    })
    const mine = logs.filter(
      (log) =>
        String(log.args.from).toLowerCase() === wallet ||
        String(log.args.to).toLowerCase() === wallet,
    )
    const transfers = await everyRow(await account().getTokenTransfers({ ...on, limit: 1 }))
    expect(transfers.map((row) => [row.transaction_hash, row.value])).toEqual(
      mine.reverse().map((log) => [log.transactionHash, String(log.args.value)]),
    )
    expect(transfers[0]).toMatchObject({
      from_address: wallet,
      block_timestamp: expect.any(String),
    })

    // NFT transfers: the cats and the multi-tokens in and out.
    const nftMoves = await everyRow(await account().getNFTTransfers({ ...on, limit: 3 }))
    expect(nftMoves).toHaveLength(7)
    expect(nftMoves[0]).toMatchObject({ token_id: '8', amount: '3', from_address: wallet })

    // Native transactions: those the wallet sent (its nonce says how many) and received.
    const sent = await first.getTransactionCount({ address: wallet })
    const transactions = await everyRow(await account().getTransactions({ ...on, limit: 2 }))
    expect(transactions.filter((row) => row.from_address === wallet)).toHaveLength(sent)
    const received = transactions.filter((row) => row.to_address === wallet)
    expect(received.map((row) => row.value)).toEqual(['1000'])
    for (const row of transactions) {
      const receipt = await first.getTransactionReceipt({ hash: row.hash })
      expect(row).toMatchObject({
        block_number: String(receipt.blockNumber),
        receipt_status: receipt.status === 'success' ? '1' : '0',
        receipt_gas_used: String(receipt.gasUsed),
      })
    }
    const lastBlock = transactions.at(-1)!.block_number
    const ranged = await account().getTransactions({ ...on, to_block: lastBlock })
    expect(ranged.result.map((row: { hash: string }) => row.hash)).toEqual(
      transactions.filter((row) => row.block_number === lastBlock).map((row) => row.hash),
    )
  })

  it('refuses what it cannot answer, clearly, and starts nothing for a malformed call', async () => {
    const stranger = (n: number) => `0x${String(n).repeat(40)}`
    const bad = { chain: '0x7a69', address: stranger(3) }
    await expect(account().getNFTs({ ...bad, limit: 1000 })).rejects.toThrow(
      /limit may be at most 100/,
    )
    await expect(account().getTransactions({ ...bad, from_date: '2022-01-01' })).rejects.toThrow(
      /from_date is not served from the address index: use from_block/,
    )
    await expect(account().getTokenBalances({ ...bad, to_block: 3 })).rejects.toThrow(
      /to_block is not served from the address index/,
    )
    await expect(account().getNFTs({ chain: '0x7a69', address: '0x12' })).rejects.toThrow(
      /address is not an address/,
    )
    await expect(account().getWalletNFTCollections({ ...bad, cursor: 'nope' })).rejects.toThrow(
      /cursor is not one this server gave/,
    )
    // This caller may start two addresses: the wallet was one, and none of the refused calls
    // above started another, so one more is taken and the next is refused.
    await expect(account().getNFTs({ ...on, address: stranger(1) })).resolves.toMatchObject({
      status: 'SYNCING',
      total: 0,
    })
    await expect(account().getNFTs({ ...on, address: stranger(2) })).rejects.toThrow(
      /has started 2 addresses already/,
    )
  })
})
