import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FastifyInstance } from 'fastify'
import { Contract, FetchRequest, JsonRpcProvider, Wallet, id as eventTopic } from 'ethers'
import { createPublicClient, http } from 'viem'
import { anvilAccount, anvilChainId, startAnvil, type Anvil } from '@portico/test-kit/anvil'
import { testApp } from '../../test/helpers.ts'
import { rpcTestConfig } from '../../test/rpc.ts'

// Real JSON-RPC clients through the gateway, against anvil: they must see the gateway as they
// see a node. The gateway holds no database state for these calls, so one database is enough.

/**
 * A contract whose every call emits `Ping()` (LOG1 with the event's topic), deployed from raw
 * bytecode: init code that copies the 39-byte runtime `PUSH32 topic, PUSH1 0, PUSH1 0, LOG1, STOP`
 * into memory and returns it.
 */
function pingBytecode(): string {
  const runtime = `7f${eventTopic('Ping()').slice(2)}60006000a100`
  const init = '602780600b6000396000f3'
  return `0x${init}${runtime}`
}

let anvil: Anvil
let app: FastifyInstance
let gateway: string
let apiKey: string
beforeAll(async () => {
  anvil = await startAnvil()
  ;({ app } = await testApp('pglite', { rpc: rpcTestConfig({ [anvilChainId]: [anvil.url] }) }))
  await app.listen({ host: '127.0.0.1', port: 0 })
  const address = app.server.address()
  if (!address || typeof address === 'string') throw new Error('not listening')
  gateway = `http://127.0.0.1:${address.port}/api/rpc/${anvilChainId}`
  ;({ key: apiKey } = await app.services.people.createApiKey('clients'))
})
afterAll(async () => {
  await anvil?.stop()
})

function ethersProvider(): JsonRpcProvider {
  const request = new FetchRequest(gateway)
  request.setHeader('x-api-key', apiKey)
  const provider = new JsonRpcProvider(request, anvilChainId, { staticNetwork: true })
  provider.pollingInterval = 100
  return provider
}

describe('ethers v6 through the gateway', () => {
  it('contract.on() fires for a mined event (filters fall back to polling) and off() is clean', async () => {
    const provider = ethersProvider()
    try {
      const signer = new Wallet(anvilAccount.privateKey, provider)
      const deployed = await signer.sendTransaction({ data: pingBytecode() })
      const receipt = await deployed.wait()
      const address = receipt!.contractAddress!
      const contract = new Contract(address, ['event Ping()'], provider)

      const heard = new Promise<string>((resolve) => {
        void contract.on('Ping', (event: { log: { transactionHash: string } }) =>
          resolve(event.log.transactionHash),
        )
      })
      // Give the subscriber its first poll, so the event below is new to it.
      await new Promise((resolve) => setTimeout(resolve, 500))
      const ping = await signer.sendTransaction({ to: address })
      await ping.wait()
      const hash = await Promise.race([
        heard,
        new Promise<never>((_, reject) =>
          setTimeout(() => reject(new Error('Ping() was never heard')), 15_000),
        ),
      ])
      expect(hash).toBe(ping.hash)
      await contract.removeAllListeners()
      // Still usable after the listener is gone.
      expect(await provider.getBlockNumber()).toBeGreaterThan(0)
    } finally {
      provider.destroy()
    }
  })

  it('answers filter methods as a node that lacks them does (-32601, "does not exist")', async () => {
    const response = await fetch(gateway, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
      body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'eth_newFilter', params: [{}] }),
    })
    const body = (await response.json()) as { error: { code: number; message: string } }
    expect(body.error.code).toBe(-32601)
    expect(body.error.message).toMatch(/the method eth_newFilter does not exist/i)
  })
})

describe('batches of 1,000 calls through the gateway', () => {
  const addresses = Array.from(
    { length: 1_000 },
    (_, i) => `0x${(i + 1).toString(16).padStart(40, '0')}` as `0x${string}`,
  )

  it('viem http({ batch: true }) with 1,000 calls in flight', async () => {
    const client = createPublicClient({
      transport: http(gateway, { batch: true, fetchOptions: { headers: { 'x-api-key': apiKey } } }),
    })
    const balances = await Promise.all(addresses.map((address) => client.getBalance({ address })))
    expect(balances).toHaveLength(1_000)
    expect(balances.every((balance) => balance === 0n)).toBe(true)
    const funded = await client.getBalance({ address: anvilAccount.address })
    expect(funded).toBeGreaterThan(0n)
  })

  it('ethers JsonRpcProvider with batchMaxCount 1,000', async () => {
    const request = new FetchRequest(gateway)
    request.setHeader('x-api-key', apiKey)
    const provider = new JsonRpcProvider(request, anvilChainId, {
      staticNetwork: true,
      batchMaxCount: 1_000,
    })
    try {
      const balances = await Promise.all(
        [...addresses, anvilAccount.address].map((address) => provider.getBalance(address)),
      )
      expect(balances.slice(0, 1_000).every((balance) => balance === 0n)).toBe(true)
      expect(balances[1_000]).toBeGreaterThan(0n)
    } finally {
      provider.destroy()
    }
  })
})
