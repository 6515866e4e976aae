import { createRequire } from 'node:module'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { getAddress, parseAbi } from 'viem'
import { startAnvil, type Anvil } from '@portico/test-kit/anvil'
import { startTestServer, type TestServer } from '@portico/test-kit/http-server'
import { databaseKinds, signedIn } from '../../test/helpers.ts'
import { keepOnLoopback, listeningApp, type ListeningApp } from '../../test/compat.ts'
import { rpcTestConfig } from '../../test/rpc.ts'
import { loadWeb3ApiConfig } from '../config/web3api.ts'
import { loadConfig } from '../config/server.ts'
import { parseStatus, toParseError } from '../compat/parse-error.ts'
import { Web3Api } from './service.ts'
import { testNftAbi } from '@portico/test-kit/tokens'
import { deployWeb3Chain, holder, type Web3Chain } from '../../test/web3api.ts'

// Moralis v1's Web3 API from the site's own node, called by the real clients: moralis-v1 1.13
// (app id in every call, `result.next()`) and moralis 1.2.4 (no app id before sign-in), against
// anvil with ERC-20/721/1155 tokens, Uniswap v2's factory and pairs, and an ENS-like registry.

const require = createRequire(import.meta.url)
keepOnLoopback('moralis-v1/lib/node/RESTController.js')
keepOnLoopback('moralis-1-2/lib/node/RESTController.js')
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the v1 SDKs ship loose types
const Moralis = require('moralis-v1/node') as any
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the v1 SDKs ship loose types
const Moralis12 = require('moralis-1-2/node') as any
const VIEWER = getAddress(`0x${'c3'.repeat(20)}`)

describe.each(databaseKinds())('Web3 API through the real v1 clients on %s', (kind) => {
  let anvil: Anvil
  let metadata: TestServer
  let server: ListeningApp
  let chain: Web3Chain
  let version = 1
  const hanging = new Set<{ destroy(): void }>()
  const api = () => Moralis.Web3API
  const old = () => Moralis12.Web3API
  const post = async (name: string, body: Record<string, unknown>) => {
    const answer = await fetch(`${server.serverUrl}/functions/${name}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the answer's shape is asserted
    return { status: answer.status, json: () => answer.json() as Promise<any> }
  }

  beforeAll(async () => {
    anvil = await startAnvil()
    metadata = await startTestServer(({ req, res }) => {
      const cat = /^\/cat\/(\d+)\.json$/.exec(req.url ?? '')
      if (cat) {
        res.writeHead(200, { 'content-type': 'application/json' })
        const image = `ipfs://cat${cat[1]}`
        return res.end(
          JSON.stringify({ name: `Cat ${cat[1]}`, image, ...(cat[1] === '3' ? { version } : {}) }),
        )
      }
      // Hostile token URIs: one that never answers, 50 MB, a redirect to the server itself.
      if (req.url === '/hang') return void hanging.add(res)
      if (req.url === '/huge') {
        res.writeHead(200, { 'content-type': 'application/json' })
        const chunk = Buffer.alloc(1024 * 1024, 0x20)
        let sent = 0
        const more = (): void => {
          while (sent < 50) {
            sent++
            if (!res.write(chunk)) return void res.once('drain', more)
          }
          res.end()
        }
        res.on('error', () => {})
        return more()
      }
      if (req.url === '/inside') {
        res.writeHead(302, { location: `${server.origin}/api/health` })
        return res.end()
      }
      if (req.url?.startsWith('/multi/')) {
        res.writeHead(200, { 'content-type': 'application/json' })
        return res.end(JSON.stringify({ name: 'Multi', path: req.url }))
      }
      res.writeHead(404).end()
    })
    chain = await deployWeb3Chain(anvil.url, metadata.url)
    const env = {
      WEB3API_CHAINS: 'eth:31337',
      WEB3API_DEX_31337: `${chain.factory},${chain.weth},${chain.usd}`,
      WEB3API_ENS_31337: chain.ens,
      WEB3API_METADATA_PRIVATE_HOSTS: new URL(metadata.url).host,
      WEB3API_METADATA_TIMEOUT_MS: '500',
    }
    const problems: string[] = []
    const web3api = loadWeb3ApiConfig(env, problems)
    expect(problems).toEqual([])
    server = await listeningApp(kind, {
      rpc: rpcTestConfig({ 31337: [anvil.url] }),
      web3api,
      app: { ...loadConfig({}).app, viewerAddresses: [VIEWER] },
    })
    Moralis.User.enableUnsafeCurrentUser()
    await Moralis.start({ serverUrl: server.serverUrl, appId: 'portico' })
    await Moralis12.start({ serverUrl: server.serverUrl, appId: 'portico', plugins: [] })
  })
  afterAll(async () => {
    for (const res of hanging) res.destroy()
    await server?.close()
    await metadata?.close()
    await anvil?.stop()
  })

  it('answers getNativeBalance for v1 names, hex ids and the name pointed at the local chain', async () => {
    const wei = await chain.wallet.getBalance({ address: holder })
    await chain.wallet.sendTransaction({ to: holder, value: 12345n })
    const expected = String(wei + 12345n)
    expect(await api().account.getNativeBalance({ chain: '0x7a69', address: holder })).toEqual({
      balance: expected,
    })
    // "eth" (also the SDK's default) is pointed at chain 31337 by WEB3API_CHAINS.
    expect(await api().account.getNativeBalance({ address: holder })).toEqual({ balance: expected })
    expect(await old().account.getNativeBalance({ chain: 'eth', address: holder })).toEqual({
      balance: expected,
    })
    await expect(
      api().account.getNativeBalance({ chain: 'polygon', address: holder }),
    ).rejects.toThrow(/Chain polygon \(id 137\) is not served.*RPC_URL_137.*WEB3API_CHAINS/)
  })

  it('takes calls with no app id for Web3 API names only, as clients before 1.12 send them', async () => {
    const unsigned = await post('getNativeBalance', { chain: 'eth', address: holder })
    expect(unsigned.status).toBe(200)
    expect((await unsigned.json()).result.balance).toMatch(/^\d+$/)
    // Every other function keeps the app id check.
    const other = await post('getPluginSpecs', {})
    expect(other.status).toBe(400)
    expect((await other.json()).code).toBe(119)
    const wrongApp = await post('getNativeBalance', { _ApplicationId: 'other', address: holder })
    expect((await wrongApp.json()).code).toBe(119)
  })

  it('refuses malformed calls with a clear error, never a 5xx', async () => {
    await expect(api().account.getNativeBalance({ address: '0x1234' })).rejects.toThrow(
      'address is not an address (0x and 40 hex digits).',
    )
    await expect(
      api().account.getNativeBalance({ chain: 'moon', address: holder }),
    ).rejects.toThrow(/Unknown chain "moon"/)
    await expect(api().token.getNFTOwners({ address: chain.nft, limit: 1000 })).rejects.toThrow(
      'limit may be at most 100 (got 1000).',
    )
    await expect(api().token.getNFTOwners({ address: chain.nft, cursor: 'nope' })).rejects.toThrow(
      /cursor is not one this server gave/,
    )
    for (const body of [
      { _ApplicationId: 'portico', address: 'x' },
      { _ApplicationId: 'portico', chain: 12, address: holder },
      { _ApplicationId: 'portico', address: holder, to_block: 'soon' },
      { _ApplicationId: 'portico', address: chain.nft, cursor: 'p1.AAAA' },
    ]) {
      const answer = await post(body.to_block ? 'getNativeBalance' : 'getAllTokenIds', body)
      expect(answer.status).toBe(400)
      expect((await answer.json()).code).toBe(141)
    }
    // A contract that is not an NFT, a transaction that does not exist, a block not mined yet.
    await expect(api().token.getAllTokenIds({ address: chain.token })).rejects.toThrow(
      /is not an NFT contract/,
    )
    await expect(
      api().native.getTransaction({ transaction_hash: `0x${'ab'.repeat(32)}` }),
    ).rejects.toThrow(/No mined transaction/)
    await expect(api().native.getBlock({ block_number_or_hash: '99999999' })).rejects.toThrow(
      /is not mined yet/,
    )
  })

  it('reads ERC-20 metadata, allowances and any view function', async () => {
    expect(
      await api().token.getTokenMetadata({ addresses: [chain.token, chain.usd] }),
    ).toMatchObject([
      { address: chain.token, name: 'Gold', symbol: 'GLD', decimals: '18' },
      { address: chain.usd, name: 'Dollar', symbol: 'USD', decimals: '6' },
    ])
    expect(
      await api().token.getTokenAllowance({
        address: chain.token,
        owner_address: chain.me,
        spender_address: holder,
      }),
    ).toEqual({ allowance: '1234' })
    const abi = parseAbi(['function balanceOf(address account) view returns (uint256)'])
    expect(
      await api().native.runContractFunction({
        address: chain.token,
        function_name: 'balanceOf',
        abi,
        params: { account: holder },
      }),
    ).toBe('25000000000000000000')
    await expect(
      api().native.runContractFunction({
        address: chain.token,
        function_name: 'balanceOf',
        abi,
        params: {},
      }),
    ).rejects.toThrow('params.account is required by balanceOf.')
  })

  it('answers blocks, transactions and the block of a date as the chain has them', async () => {
    const receipt = chain.mintTx
    const tx = await api().native.getTransaction({ transaction_hash: receipt.transactionHash })
    expect(tx).toMatchObject({
      hash: receipt.transactionHash,
      from_address: chain.me,
      to_address: chain.token,
      block_number: String(receipt.blockNumber),
      receipt_status: '1',
      receipt_gas_used: String(receipt.gasUsed),
    })
    expect(tx.logs[0]).toMatchObject({
      address: chain.token,
      topic2: `0x${chain.me.slice(2).padStart(64, '0')}`,
    })
    const block = await api().native.getBlock({ block_number_or_hash: String(receipt.blockNumber) })
    expect(block.hash).toBe(receipt.blockHash)
    const inBlock = block.transactions.find(
      (t: { hash: string }) => t.hash === receipt.transactionHash,
    )
    expect(inBlock).toMatchObject({
      receipt_status: '1',
      receipt_gas_used: String(receipt.gasUsed),
      logs: [{ address: chain.token, log_index: String(receipt.logs[0]!.logIndex) }],
    })
    const byHash = await api().native.getBlock({ block_number_or_hash: receipt.blockHash })
    expect(byHash.number).toBe(String(receipt.blockNumber))
    const mined = await chain.wallet.getBlock({ blockNumber: receipt.blockNumber })
    const found = await api().native.getDateToBlock({
      date: new Date(Number(mined.timestamp) * 1000).toISOString(),
    })
    expect(found.timestamp).toBe(Number(mined.timestamp))
    // The last block at or before that second.
    const after = await chain.wallet
      .getBlock({ blockNumber: BigInt(found.block) + 1n })
      .catch(() => null)
    if (after) expect(after.timestamp).toBeGreaterThan(mined.timestamp)
  })

  it('pages logs and decoded events with v1 fields, and result.next() follows them', async () => {
    const first = await api().native.getLogsByAddress({ address: chain.token, limit: 2 })
    expect(first).toMatchObject({ page: 0, page_size: 2 })
    const logs = await chain.wallet.getLogs({ address: chain.token, fromBlock: 0n })
    expect(first.total).toBe(logs.length)
    expect(first.result[0].transaction_hash).toBe(logs.at(-1)!.transactionHash)
    const seen = [...first.result]
    let page = first
    while (page.next) {
      page = await page.next()
      seen.push(...page.result)
    }
    expect(seen.map((log: { log_index: number }) => log.log_index)).toEqual(
      logs.map((log) => log.logIndex).reverse(),
    )
    const events = await api().native.getContractEvents({
      address: chain.token,
      topic: 'Transfer(address, address, uint256)',
      abi: parseAbi(['event Transfer(address indexed from, address indexed to, uint256 value)'])[0],
    })
    const toHolder = events.result.find((e: { data: { to: string } }) => e.data.to === holder)
    expect(toHolder.data).toEqual({ from: chain.me, to: holder, value: '25000000000000000000' })
    expect(events.total).toBe(events.result.length)
  })

  it('answers an NFT contract’s tokens, owners, transfers and metadata read from the token URI', async () => {
    const owners = await api().token.getNFTOwners({ address: chain.nft, limit: 2 })
    expect(owners).toMatchObject({ total: 3, page: 0, page_size: 2 })
    const next = await owners.next()
    const all = [...owners.result, ...next.result]
    expect(
      all.map((o: { token_id: string; owner_of: string }) => [o.token_id, o.owner_of]),
    ).toEqual([
      ['1', chain.me],
      ['2', holder],
      ['3', chain.me],
    ])
    expect(all[0]).toMatchObject({
      contract_type: 'ERC721',
      name: 'Cats',
      symbol: 'CAT',
      amount: '1',
      token_uri: `${metadata.url}/cat/1.json`,
    })
    // The metadata is read in the background: a JSON string once read, as v1 gave it.
    await vi.waitFor(async () => {
      const token = await api().token.getTokenIdMetadata({ address: chain.nft, token_id: '2' })
      expect(JSON.parse(token.metadata)).toEqual({ name: 'Cat 2', image: 'ipfs://cat2' })
      expect(token.owner_of).toBe(holder)
      expect(token.synced_at).toMatch(/^\d{4}-/)
    })
    const ids = await api().token.getAllTokenIds({ address: chain.nft, format: 'hex' })
    expect(ids.result.map((t: { token_id: string }) => t.token_id)).toEqual(['0x1', '0x2', '0x3'])
    const transfers = await api().token.getContractNFTTransfers({ address: chain.nft })
    expect(transfers.total).toBe(4)
    expect(transfers.result[0]).toMatchObject({
      token_id: '2',
      value: '0',
      amount: '1',
      transaction_type: 'Single',
      from_address: chain.me,
      to_address: holder,
      transaction_hash: chain.nftTransfer.transactionHash,
    })
    expect(await api().token.getNFTMetadata({ address: chain.nft })).toMatchObject({
      token_address: chain.nft,
      name: 'Cats',
      contract_type: 'ERC721',
    })
    // ERC-1155: owners with amounts, the URI's {id} filled in.
    const multi = await api().token.getTokenIdOwners({ address: chain.multi, token_id: '7' })
    expect(
      multi.result.map((o: { owner_of: string; amount: string }) => [o.owner_of, o.amount]).sort(),
    ).toEqual(
      [
        [holder, '3'],
        [chain.me, '5'],
      ].sort(),
    )
    expect(multi.result[0].token_uri).toBe(`${metadata.url}/multi/${'7'.padStart(64, '0')}.json`)
    // Moralis 1.2.4, with no app id, reads the same.
    const oldIds = await old().token.getAllTokenIds({ address: chain.multi })
    expect(oldIds.result).toMatchObject([{ token_id: '7', amount: '8', contract_type: 'ERC1155' }])
  })

  it('prices a token from its Uniswap v2 pairs, and reads pairs and reserves', async () => {
    const pair = await api().defi.getPairAddress({
      token0_address: chain.token,
      token1_address: chain.weth,
      exchange: 'uniswapv2',
    })
    expect(pair.pairAddress).toBe(chain.goldPair)
    expect([pair.token0.symbol, pair.token1.symbol].sort()).toEqual(['GLD', 'WETH'])
    const reserves = await api().defi.getPairReserves({ pair_address: chain.usdPair })
    expect([reserves.reserve0, reserves.reserve1].sort()).toEqual([
      '10000000000000000000',
      '30000000000',
    ])
    const price = await api().token.getTokenPrice({ address: chain.token })
    expect(price).toMatchObject({
      nativePrice: {
        value: '2000000000000000',
        decimals: 18,
        symbol: 'WETH',
        name: 'Wrapped Ether',
      },
      exchangeAddress: chain.factory,
    })
    expect(price.usdPrice).toBeCloseTo(6, 9)
    await expect(api().token.getTokenPrice({ address: chain.nft })).rejects.toThrow(/not an ERC-20/)
  })

  it('resolves ENS names both ways from the configured registry', async () => {
    expect(await api().resolve.resolveDomain({ domain: 'alice.eth' })).toEqual({
      address: chain.me,
    })
    expect(await api().resolve.resolveAddress({ address: chain.me })).toEqual({ name: 'alice.eth' })
    await expect(api().resolve.resolveAddress({ address: holder })).rejects.toThrow(
      /has no ENS name/,
    )
  })

  it('names what answers the wallet-wide endpoints, and what is not served', async () => {
    await expect(api().account.getNFTs({ address: holder })).rejects.toThrow(
      /getNFTs reads what a wallet holds and did from the address index/,
    )
    await expect(old().account.getTokenBalances({ address: holder })).rejects.toThrow(
      /address index/,
    )
    await expect(api().token.getNFTTrades({ address: chain.nft })).rejects.toThrow(
      'getNFTTrades is not served by this server: NFT trades need an index of marketplaces.',
    )
  })

  it('reads metadata again on reSyncMetadata, and survives token URIs that hang, are huge or point inside', async () => {
    const read = async (id: string) =>
      (await api().token.getTokenIdMetadata({ address: chain.nft, token_id: id })).metadata
    await vi.waitFor(async () => expect(JSON.parse(await read('3')).version).toBe(1))
    version = 2
    // Kept until asked again.
    expect(JSON.parse(await read('3')).version).toBe(1)
    expect(
      await api().token.reSyncMetadata({ address: chain.nft, token_id: '3', mode: 'sync' }),
    ).toEqual({ status: 'The metadata was read again.' })
    expect(JSON.parse(await read('3')).version).toBe(2)

    const hostile = { hang: 10n, huge: 11n, inside: 12n }
    for (const [path, id] of Object.entries(hostile))
      await chain.send(chain.nft, testNftAbi, 'mint', [chain.me, id, `${metadata.url}/${path}`])
    const answers = await Promise.all(
      Object.values(hostile).map((id) =>
        api().token.getTokenIdMetadata({ address: chain.nft, token_id: String(id) }),
      ),
    )
    expect(answers.map((a: { metadata: unknown }) => a.metadata)).toEqual([null, null, null])
    await expect(
      api().token.reSyncMetadata({ address: chain.nft, token_id: '10', mode: 'sync' }),
    ).rejects.toThrow(/could not be read: no answer within 500 ms/)
    await expect(
      api().token.reSyncMetadata({ address: chain.nft, token_id: '11', mode: 'sync' }),
    ).rejects.toThrow(/could not be read: larger than 262144 bytes/)
    await expect(
      api().token.reSyncMetadata({ address: chain.nft, token_id: '12', mode: 'sync' }),
    ).rejects.toThrow(/could not be read: the token URI points at a private address/)
    // The server answers on, and the tokens stay without metadata.
    expect(await read('12')).toBeNull()
    expect((await api().account.getNativeBalance({ address: holder })).balance).toMatch(/^\d+$/)
  })

  it('counts calls per client address against the Web3 API limit', async () => {
    const { config, windowCounter, log } = server.app.services
    const limited = new Web3Api(
      { ...config, web3api: { ...config.web3api, rateLimitPerIp: 3 } },
      windowCounter,
      log,
    )
    try {
      const ask = (address: string) =>
        limited.answer('getNativeBalance', { address: holder }, address)
      for (let i = 0; i < 3; i++) await ask('203.0.113.7')
      const refusal = await ask('203.0.113.7').catch((error: unknown) => error)
      const parsed = toParseError(refusal)!
      expect(parseStatus(parsed.code)).toBe(429)
      expect(parsed.message).toMatch(/may make 3 Web3 API calls per minute/)
      // Another address has its own count; cloud code's own calls are not counted.
      expect(await ask('203.0.113.8')).toHaveProperty('balance')
      expect(
        await limited.answer('getNativeBalance', { address: holder }, undefined),
      ).toHaveProperty('balance')
    } finally {
      limited.close()
    }
  })

  it('shows the console which functions were called, how often and how long they took', async () => {
    const viewer = (await signedIn(server.app, VIEWER)).headers
    const before = await server.app.inject({ url: '/api/admin/web3api', headers: viewer })
    const count = (body: { results: { name: string; calls: number; errors: number }[] }) =>
      body.results.find((row) => row.name === 'getPairReserves') ?? { calls: 0, errors: 0 }
    const was = count(before.json())
    await api().defi.getPairReserves({ pair_address: chain.goldPair })
    await expect(api().defi.getPairReserves({ pair_address: 'x' })).rejects.toThrow(/pair_address/)
    const after = await server.app.inject({ url: '/api/admin/web3api', headers: viewer })
    expect(after.statusCode).toBe(200)
    const body = after.json()
    expect(count(body)).toMatchObject({ calls: was.calls + 2, errors: was.errors + 1 })
    const row = body.results.find((r: { name: string }) => r.name === 'getPairReserves')
    // The documented shape, whole (the response schema keeps only the properties it names).
    expect(row).toEqual({
      name: 'getPairReserves',
      calls: was.calls + 2,
      errors: was.errors + 1,
      totalSeconds: expect.any(Number),
      averageSeconds: expect.any(Number),
      maxSeconds: expect.any(Number),
    })
    expect(Object.keys(body).sort()).toEqual([
      'addressEndpoints',
      'addressIndex',
      'processId',
      'results',
      'since',
    ])
    expect(row.averageSeconds).toBeCloseTo(row.totalSeconds / row.calls)
    expect(row.maxSeconds).toBeGreaterThan(0)
    expect(row.averageSeconds).toBeLessThanOrEqual(row.maxSeconds)
    expect(body.addressIndex).toBeNull()
    expect(body.addressEndpoints).toContain('getNFTs')
    const member = (await signedIn(server.app)).headers
    expect(
      (await server.app.inject({ url: '/api/admin/web3api', headers: member })).statusCode,
    ).toBe(403)
  })
})
