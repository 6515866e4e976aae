import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseEther, parseGwei } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { anvilAccount, anvilChainId, startAnvil, type Anvil } from '@portico/test-kit/anvil'
import { rpcTestConfig } from '../../test/rpc.ts'
import { RpcGateway } from './gateway.ts'

let anvil: Anvil
beforeAll(async () => {
  anvil = await startAnvil()
})
afterAll(() => anvil?.stop())

const call = (method: string, params: unknown[] = []) => ({ jsonrpc: '2.0', id: 1, method, params })

describe('answers cached once final', () => {
  it('serves a receipt from the cache only once its block is finalityBlocks deep', async () => {
    const lookups: boolean[] = []
    const gateway = new RpcGateway({
      config: rpcTestConfig({ [anvilChainId]: [anvil.url] }, { finalityBlocks: 5 }),
      onCacheLookup: (_chain, hit) => lookups.push(hit),
    })
    const ask = async (method: string, params: unknown[] = []) =>
      ((await gateway.handle(anvilChainId, call(method, params))).body as { result: unknown })
        .result
    try {
      const raw = await privateKeyToAccount(anvilAccount.privateKey).signTransaction({
        chainId: anvilChainId,
        to: '0x000000000000000000000000000000000000bEEF',
        value: parseEther('0.1'),
        nonce: Number(await ask('eth_getTransactionCount', [anvilAccount.address, 'latest'])),
        gas: 21_000n,
        maxFeePerGas: parseGwei('20'),
        maxPriorityFeePerGas: parseGwei('1'),
      })
      const hash = (await ask('eth_sendRawTransaction', [raw])) as string
      // Mined a moment later: waited for straight at the node, so the gateway sees none of it.
      await expect
        .poll(async () => {
          const answer = await fetch(anvil.url, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(call('eth_getTransactionReceipt', [hash])),
          })
          return ((await answer.json()) as { result: unknown }).result
        })
        .not.toBeNull()
      const receipt = (await ask('eth_getTransactionReceipt', [hash])) as { blockNumber: string }
      expect(receipt.blockNumber).toMatch(/^0x/)

      // Not final yet (the gateway has seen a head only 0 blocks above it): asked again, upstream.
      await ask('eth_blockNumber')
      expect(await ask('eth_getTransactionReceipt', [hash])).toEqual(receipt)
      expect(lookups).toEqual([false, false])

      // Five blocks on top, and the gateway has seen that head: the next answer is kept.
      await fetch(anvil.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(call('anvil_mine', ['0x5'])),
      })
      await ask('eth_blockNumber')
      expect(await ask('eth_getTransactionReceipt', [hash])).toEqual(receipt)
      expect(await ask('eth_getTransactionReceipt', [hash])).toEqual(receipt)
      expect(await ask('eth_getTransactionByHash', [hash])).toMatchObject({ hash })
      expect(await ask('eth_getTransactionByHash', [hash])).toMatchObject({ hash })
      expect(lookups).toEqual([false, false, false, true, false, true])

      // A transaction the node does not know (null) is never cached.
      const unknown = `0x${'ab'.repeat(32)}`
      expect(await ask('eth_getTransactionReceipt', [unknown])).toBeNull()
      expect(await ask('eth_getTransactionReceipt', [unknown])).toBeNull()
      expect(lookups.slice(-2)).toEqual([false, false])
      // And the chain id is always served from the cache after its first answer.
      await ask('eth_chainId')
      await ask('eth_chainId')
      expect(lookups.slice(-2)).toEqual([false, true])
    } finally {
      gateway.close()
    }
  })
})
