import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseEther, parseGwei } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { ChainUrlMissingError, NodeConfigMissingError } from '../errors/rpc.ts'
import { anvilAccount, anvilChainId, startAnvil, type Anvil } from '@portico/test-kit/anvil'
import { connectNode } from './connect-node.ts'

let anvil: Anvil
beforeAll(async () => {
  anvil = await startAnvil()
})
afterAll(async () => {
  await anvil?.stop()
})

describe('connectNode against a real anvil chain', () => {
  it('reads the block number, chain id and a balance', async () => {
    const client = connectNode({ chainId: anvilChainId, urls: { [anvilChainId]: anvil.url } })
    expect(await client.getChainId()).toBe(anvilChainId)
    expect(await client.getBlockNumber()).toBeGreaterThanOrEqual(0n)
    expect(await client.getBalance({ address: anvilAccount.address })).toBeGreaterThan(
      parseEther('1000'),
    )
  })

  it('sends a raw transaction signed with an anvil key and sees it mined', async () => {
    const client = connectNode({ chainId: '0x7a69', urls: { '0x7a69': [anvil.url] } })
    const account = privateKeyToAccount(anvilAccount.privateKey)
    const to = '0x000000000000000000000000000000000000dEaD'
    const before = await client.getBalance({ address: to })
    const serializedTransaction = await account.signTransaction({
      chainId: anvilChainId,
      to,
      value: parseEther('0.5'),
      nonce: await client.getTransactionCount({ address: account.address }),
      gas: 21_000n,
      maxFeePerGas: parseGwei('20'),
      maxPriorityFeePerGas: parseGwei('1'),
    })
    const hash = await client.sendRawTransaction({ serializedTransaction })
    const receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: 20 })
    expect(receipt.status).toBe('success')
    expect(await client.getBalance({ address: to })).toBe(before + parseEther('0.5'))
  })

  it('uses the spec defaults and lets them be overridden', () => {
    const client = connectNode({ chainId: anvilChainId, urls: { [anvilChainId]: anvil.url } })
    expect(client.pollingInterval).toBe(4000)
    expect(client.transport.timeout).toBeUndefined() // the time-out lives on each http transport
    const fast = connectNode({
      chainId: anvilChainId,
      urls: { [anvilChainId]: anvil.url },
      pollingInterval: 50,
    })
    expect(fast.pollingInterval).toBe(50)
  })

  it('switches chain: each chain gets its own cached client', async () => {
    const client = connectNode({
      chainId: anvilChainId,
      urls: { [anvilChainId]: anvil.url, 1: 'http://127.0.0.1:9' },
    })
    const mainnet = client.switchChain(1)
    expect(mainnet.chain.id).toBe(1)
    expect(mainnet.switchChain(anvilChainId)).toBe(client)
    expect(await mainnet.switchChain(anvilChainId).getChainId()).toBe(anvilChainId)
    expect(() => client.switchChain(10)).toThrow(ChainUrlMissingError)
  })
})

describe('connectNode configuration errors', () => {
  it('needs urls or a key', () => {
    for (const parameters of [
      { chainId: 1 },
      { chainId: 1, urls: {} },
      { chainId: 1, urls: { 1: [] } },
    ]) {
      let error: unknown
      try {
        connectNode(parameters)
      } catch (e) {
        error = e
      }
      expect(error).toBeInstanceOf(NodeConfigMissingError)
      expect((error as NodeConfigMissingError).shortMessage).toBe(
        'Cannot connect to rpc: No urls or speedyNodeApiKey provided',
      )
    }
  })

  it('names the chain without a url', () => {
    let error: unknown
    try {
      connectNode({ chainId: 137, urls: { 1: 'http://127.0.0.1:9' } })
    } catch (e) {
      error = e
    }
    expect(error).toBeInstanceOf(ChainUrlMissingError)
    expect((error as ChainUrlMissingError).name).toBe('ChainUrlMissingError')
    expect((error as ChainUrlMissingError).shortMessage).toBe('No rpc url provided for chainId 137')
  })
})
