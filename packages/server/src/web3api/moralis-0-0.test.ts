import { createRequire } from 'node:module'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startAnvil, type Anvil } from '@portico/test-kit/anvil'
import { startTestServer, type TestServer } from '@portico/test-kit/http-server'
import { databaseKinds } from '../../test/helpers.ts'
import { listeningApp, type ListeningApp } from '../../test/compat.ts'
import { rpcTestConfig } from '../../test/rpc.ts'
import { loadWeb3ApiConfig } from '../config/web3api.ts'
import { deployWeb3Chain, holder, type Web3Chain } from '../../test/web3api.ts'

// The oldest Moralis client on npm, moralis 0.0.118, as apps of early 2021 still run it: its
// Web3 API posts each call with axios to `<serverUrl>/functions/<name>`, with no app id and no
// session, and reads `result` (an error answer is thrown as the answer's body).

const require = createRequire(import.meta.url)
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the v1 SDKs ship loose types
const Moralis = require('moralis-0-0/node') as any

describe.each(databaseKinds())('Web3 API through moralis 0.0.118 on %s', (kind) => {
  let anvil: Anvil
  let metadata: TestServer
  let server: ListeningApp
  let chain: Web3Chain
  const api = () => Moralis.Web3API

  beforeAll(async () => {
    anvil = await startAnvil()
    metadata = await startTestServer(({ res }) => void res.writeHead(404).end())
    chain = await deployWeb3Chain(anvil.url, metadata.url)
    const problems: string[] = []
    const web3api = loadWeb3ApiConfig({ WEB3API_CHAINS: 'eth:31337' }, problems)
    expect(problems).toEqual([])
    server = await listeningApp(kind, { rpc: rpcTestConfig({ 31337: [anvil.url] }), web3api })
    await Moralis.start({ serverUrl: server.serverUrl, appId: 'portico' })
  })
  afterAll(async () => {
    await server?.close()
    await metadata?.close()
    await anvil?.stop()
  })

  it('answers balances, token metadata and blocks as the chain has them', async () => {
    await chain.wallet.sendTransaction({ to: holder, value: 777n })
    const wei = await chain.wallet.getBalance({ address: holder })
    // "eth", the client's default, is pointed at the local chain.
    expect(await api().account.getNativeBalance({ address: holder })).toEqual({
      balance: String(wei),
    })
    const [meta] = await api().token.getTokenMetadata({ addresses: [chain.token] })
    expect(meta).toMatchObject({
      address: chain.token.toLowerCase(),
      name: 'Gold',
      symbol: 'GLD',
      decimals: '18',
    })
    const head = await chain.wallet.getBlock()
    const block = await api().native.getBlock({ block_number_or_hash: String(head.number) })
    expect(block).toMatchObject({ number: String(head.number), hash: head.hash })
  })

  it('gets a clear error for a malformed call, as the body the client throws', async () => {
    await expect(
      api().account.getNativeBalance({ address: 'not-an-address' }),
    ).rejects.toMatchObject({ error: expect.stringMatching(/not an address/) })
    await expect(
      api().account.getNativeBalance({ address: holder, chain: 'polygon' }),
    ).rejects.toMatchObject({ error: expect.stringMatching(/polygon .* is not served/) })
  })
})
