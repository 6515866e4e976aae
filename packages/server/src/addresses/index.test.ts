import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sql } from 'drizzle-orm'
import { getAddress, parseEther, type Hex } from 'viem'
import { startAnvil, type Anvil } from '@portico/test-kit/anvil'
import { multi1155Abi, nft721Abi, token20Abi } from '@portico/test-kit/wallet-tokens'
import { loadConfig } from '../config/server.ts'
import { rowsOf } from '../db/client.ts'
import { databaseKinds, signedIn, startSession, testApp } from '../../test/helpers.ts'
import { rpcTestConfig } from '../../test/rpc.ts'
import { deployTokens, indexConfig, secondAccount } from '../../test/addresses.ts'

// The address index against anvil: ERC-20, ERC-721 and ERC-1155 transfers (mints, burns,
// batches) and native sends between signed-in users, a watched and an unknown address; the
// balances and holdings equal what the contracts answer at the same block, to the last unit.

const UNKNOWN = getAddress('0x00000000000000000000000000000000000000aa')
const LATE = getAddress('0x00000000000000000000000000000000000000bb')

describe.each(databaseKinds())('the address index on %s', (kind) => {
  let anvil: Anvil
  beforeAll(async () => {
    anvil = await startAnvil()
  })
  afterAll(() => anvil.stop())

  it('keeps transfers, transactions, balances and holdings exact', async () => {
    const chain = await deployTokens(anvil.url)
    const { first, second, token, nft, multi, send } = chain
    const user = first.account.address
    const { app } = await testApp(kind, {
      rpc: rpcTestConfig({ 31337: [anvil.url] }),
      addresses: indexConfig(),
      app: { ...loadConfig({}).app, viewerAddresses: [user] },
    })
    const services = app.services
    // A signed-in user (the deployer, who may view the console), a second user, and a watch.
    const { token: session } = await startSession(services.database.db, { address: user })
    const other = await signedIn(app)
    const otherAddress = other.user.address!
    await services.addressIndex.watch(31337, secondAccount.address, true)

    const e20 = (fn: string, args: unknown[], from = first) =>
      send(from, token, token20Abi, fn, args)
    const e721 = (fn: string, args: unknown[]) => send(first, nft, nft721Abi, fn, args)
    const e1155 = (fn: string, args: unknown[], from = first) =>
      send(from, multi, multi1155Abi, fn, args)
    await e20('mint', [user, 2n ** 200n + 5n])
    await e20('transfer', [otherAddress, 2n ** 130n + 7n])
    await e20('transfer', [secondAccount.address, 2n ** 60n + 1n])
    await e20('transfer', [UNKNOWN, 3n])
    await e20('transfer', ['0x0000000000000000000000000000000000000000', 1n])
    await e20('transfer', [user, 9n], second)
    await e721('mint', [user, 1n])
    await e721('mint', [user, 2n ** 140n])
    await e721('mint', [user, 3n])
    await e721('transferFrom', [user, otherAddress, 1n])
    await e721('transferFrom', [user, '0x0000000000000000000000000000000000000000', 3n])
    await e1155('mint', [user, 7n, 2n ** 129n])
    await e1155('mint', [user, 8n, 10n])
    await e1155('safeBatchTransferFrom', [user, secondAccount.address, [7n, 8n], [5n, 3n], '0x'])
    await e1155('safeTransferFrom', [user, UNKNOWN, 8n, 1n, '0x'])
    await e1155('safeTransferFrom', [secondAccount.address, otherAddress, 7n, 2n, '0x'], second)
    const native = await first.sendTransaction({
      to: secondAccount.address,
      value: parseEther('1.5'),
    })
    await first.waitForTransactionReceipt({ hash: native })

    const wallets = [user, otherAddress, secondAccount.address] as Hex[]
    const caughtUp = async () => {
      const head = await first.getBlockNumber({ cacheTime: 0 })
      const all = await Promise.all(wallets.map((a) => services.addressIndex.progress(31337, a)))
      return all.every((p) => p.status === 'SYNCED' && p.head === head.toString())
    }
    await expect.poll(caughtUp, { timeout: 30_000, interval: 100 }).toBe(true)

    const exact = async (stage: string) => {
      const blockNumber = await first.getBlockNumber({ cacheTime: 0 })
      for (const wallet of wallets) {
        const balances = await services.addressReads.balances(31337, wallet)
        const onChain = (await first.readContract({
          address: token,
          abi: token20Abi,
          functionName: 'balanceOf',
          args: [wallet],
          blockNumber,
        })) as bigint
        expect(
          balances.find((b) => b.token_address === token.toLowerCase())?.balance ?? '0',
          `${stage} ${wallet}`,
        ).toBe(onChain.toString())
        const nfts = (await services.addressReads.nfts(31337, wallet)).result
        for (const id of [1n, 2n ** 140n, 3n]) {
          const owner = (await first.readContract({
            address: nft,
            abi: nft721Abi,
            functionName: 'ownerOf',
            args: [id],
            blockNumber,
          })) as string
          const held = nfts.some(
            (n) => n.token_address === nft.toLowerCase() && n.token_id === id.toString(),
          )
          expect(held, `${stage} ${wallet} ${id} ${JSON.stringify(nfts)}`).toBe(
            owner.toLowerCase() === wallet.toLowerCase(),
          )
        }
        for (const id of [7n, 8n]) {
          const amount = (await first.readContract({
            address: multi,
            abi: multi1155Abi,
            functionName: 'balanceOf',
            args: [id, wallet],
            blockNumber,
          })) as bigint
          const held = nfts.find(
            (n) => n.token_address === multi.toLowerCase() && n.token_id === id.toString(),
          )
          expect(held?.amount ?? '0', `${stage} ${wallet} ${id}`).toBe(amount.toString())
          expect(
            await classRow('EthNFTOwners', wallet, multi, id),
            `${stage} ${wallet} ${id}`,
          ).toBe(amount.toString())
        }
        expect(await classRow('EthTokenBalance', wallet, token), `${stage} ${wallet}`).toBe(
          onChain.toString(),
        )
      }
    }
    // A v1 class row's balance or amount, read straight from the objects table ('0' when none).
    const classRow = async (name: string, wallet: string, contract: string, id?: bigint) => {
      const [row] = rowsOf<{ value: string }>(
        await services.database.db.execute(sql`
          select coalesce(data->>'balance', data->>'amount') as value from objects
          where class_name = ${name} and data->>'token_address' = ${contract.toLowerCase()}
            and coalesce(data->>'address', data->>'owner_of') = ${wallet.toLowerCase()}
            and (${id === undefined ? null : id.toString()}::text is null
              or data->>'token_id' = ${id === undefined ? null : id.toString()})`),
      )
      return row?.value ?? '0'
    }
    await exact('stage 1')
    // Progress per chain in the health output, per address in the console.
    const health = (await app.inject('/api/health')).json()
    expect(health.addressIndex).toEqual([
      expect.objectContaining({ chainId: 31337, mode: 'following', addresses: 3, syncing: 0 }),
    ])
    const consoleView = await app.inject({
      url: '/api/admin/address-index',
      headers: { authorization: `Bearer ${session}` },
    })
    expect(consoleView.statusCode).toBe(200)
    expect(consoleView.json().addresses).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          address: secondAccount.address.toLowerCase(),
          source: 'watch',
          status: 'SYNCED',
        }),
        expect.objectContaining({ address: user.toLowerCase(), source: 'user', status: 'SYNCED' }),
      ]),
    )
    // The console's answers have their documented shapes, whole (the response schema keeps only
    // the properties it names).
    const viewer = { authorization: `Bearer ${session}` }
    const view = consoleView.json()
    expect(view.chains).toEqual([
      {
        chainId: 31337,
        mode: 'following',
        writer: true,
        head: expect.stringMatching(/^[0-9]+$/),
        addresses: 3,
        syncing: 0,
        rows: expect.any(Number),
        lastError: null,
      },
    ])
    const listed = view.addresses.map((row: { address: string }) => row.address)
    expect(listed).toEqual([...wallets.map((a) => a.toLowerCase())].sort())
    for (const row of view.addresses)
      expect(row).toEqual({
        chainId: 31337,
        address: expect.stringMatching(/^0x[0-9a-f]{40}$/),
        source: expect.stringMatching(/^(user|watch)$/),
        nextBlock: expect.stringMatching(/^[0-9]+$/),
        status: 'SYNCED',
        createdAt: expect.any(String),
      })
    const after = await app.inject({
      url: `/api/admin/address-index?chainId=31337&after=${listed[0]}`,
      headers: viewer,
    })
    expect(after.json().addresses.map((row: { address: string }) => row.address)).toEqual(
      listed.slice(1),
    )
    const otherChain = await app.inject({
      url: '/api/admin/address-index?chainId=1',
      headers: viewer,
    })
    expect(otherChain.json()).toMatchObject({ chains: [{ chainId: 31337 }], addresses: [] })
    const web3api = await app.inject({ url: '/api/admin/web3api', headers: viewer })
    expect(web3api.json()).toEqual({
      processId: expect.any(String),
      since: expect.any(String),
      results: [],
      addressIndex: { chainIds: [31337] },
      addressEndpoints: expect.arrayContaining(['getNFTs', 'getTokenBalances']),
    })
    expect(
      (await app.inject({ url: '/api/admin/address-index', headers: other.headers })).statusCode,
    ).toBe(403)
    // Values above 2^128 and 2^53, exactly.
    const userBalances = await services.addressReads.balances(31337, user)
    expect(userBalances[0]).toMatchObject({
      balance: (2n ** 200n + 5n - (2n ** 130n + 7n) - (2n ** 60n + 1n) - 3n - 1n + 9n).toString(),
      name: 'Test Token',
      symbol: 'TT',
      decimals: 18,
    })
    const userNfts = (await services.addressReads.nfts(31337, user)).result
    expect(userNfts).toContainEqual(
      expect.objectContaining({
        token_id: (2n ** 140n).toString(),
        contract_type: 'ERC721',
        amount: '1',
        token_uri: `ipfs://nft/${2n ** 140n}`,
        name: 'Test NFT',
      }),
    )
    expect(userNfts).toContainEqual(
      expect.objectContaining({
        token_id: '7',
        contract_type: 'ERC1155',
        amount: (2n ** 129n - 5n).toString(),
        token_uri: 'ipfs://multi/{id}.json',
      }),
    )
    // The batch is one row per token; the native send has its receipt.
    const received = await services.addressReads.nftTransfers(31337, secondAccount.address)
    expect(
      received.result
        .filter((t) => t.transaction_type === 'Batch')
        .map((t) => [t.token_id, t.amount]),
    ).toEqual([
      ['7', '5'],
      ['8', '3'],
    ])
    const transactions = await services.addressReads.transactions(31337, secondAccount.address)
    expect(transactions.result).toContainEqual(
      expect.objectContaining({
        hash: native.toLowerCase(),
        from_address: user.toLowerCase(),
        to_address: secondAccount.address.toLowerCase(),
        value: parseEther('1.5').toString(),
        receipt_status: '1',
        receipt_gas_used: '21000',
        confirmed: true,
      }),
    )
    // The unknown address is not indexed; asking about it starts it.
    expect((await services.addressIndex.progress(31337, UNKNOWN)).status).toBe('NOT_INDEXED')

    // The v1 classes hold the same, and no client may write them.
    const rows = await app.inject({
      url: `/api/classes/EthTokenBalance?where=${encodeURIComponent(JSON.stringify({ address: otherAddress.toLowerCase() }))}`,
      headers: other.headers,
    })
    expect(rows.json().results.map((r: { data: { balance: string } }) => r.data.balance)).toEqual([
      (2n ** 130n + 7n).toString(),
    ])
    const forged = await app.inject({
      method: 'POST',
      url: '/api/classes/EthTokenTransfers',
      headers: other.headers,
      payload: { data: { value: '1' } },
    })
    expect(forged.statusCode).toBe(403)

    // A wallet linked later is read from the start block.
    const asked = await services.addressIndex.ask(31337, LATE, 'caller-1')
    expect(asked.status).toBe('SYNCING')
    await expect
      .poll(async () => (await services.addressIndex.progress(31337, LATE)).status, {
        timeout: 30_000,
      })
      .toBe('SYNCED')

    // Later ranges move balances already kept, and empty some (their rows go).
    await e20('transfer', [otherAddress, 11n])
    await e20('transfer', [UNKNOWN, 2n ** 60n + 1n - 9n], second)
    await e1155('safeTransferFrom', [secondAccount.address, user, 8n, 3n, '0x'], second)
    await expect.poll(caughtUp, { timeout: 30_000, interval: 100 }).toBe(true)
    await exact('stage 2')
    expect(await classRow('EthTokenBalance', secondAccount.address, token)).toBe('0')
    expect(
      (await services.addressReads.balances(31337, secondAccount.address)).map(
        (b) => b.token_address,
      ),
    ).not.toContain(token.toLowerCase())
  })
})
