import { createTestClient, createWalletClient, getAddress, http, publicActions } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { foundry } from 'viem/chains'
import { anvilAccount } from '@portico/test-kit/anvil'
import { emitterAbi, emitterBytecode } from '@portico/test-kit/emitter'

/** A wallet on the test chain with anvil's test actions, and the deployed event emitter. */
export async function deployEmitter(url: string, chainId: number = foundry.id) {
  const chain = { ...foundry, id: chainId }
  const wallet = createWalletClient({
    account: privateKeyToAccount(anvilAccount.privateKey),
    chain,
    transport: http(url),
  }).extend(publicActions)
  const testClient = createTestClient({ mode: 'anvil', chain, transport: http(url) })
  const hash = await wallet.deployContract({ abi: emitterAbi, bytecode: emitterBytecode })
  const { contractAddress } = await wallet.waitForTransactionReceipt({ hash })
  const address = getAddress(contractAddress!)
  const send = async (functionName: 'mint' | 'mintMany' | 'note', args: readonly unknown[]) => {
    const tx = await wallet.writeContract({
      address,
      abi: emitterAbi,
      functionName,
      args: args as never,
      gas: 30_000_000n,
    })
    return wallet.waitForTransactionReceipt({ hash: tx })
  }
  return { wallet, testClient, address, send }
}
