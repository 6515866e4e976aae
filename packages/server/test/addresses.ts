import {
  createTestClient,
  createWalletClient,
  getAddress,
  http,
  publicActions,
  type Abi,
  type Hex,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { foundry } from 'viem/chains'
import { anvilAccount } from '@portico/test-kit/anvil'
import {
  multi1155Abi,
  multi1155Bytecode,
  nft721Abi,
  nft721Bytecode,
  token20Abi,
  token20Bytecode,
} from '@portico/test-kit/wallet-tokens'
import type { AddressIndexConfig } from '../src/config/addresses.ts'

/** anvil's second test account (its well-known key). */
export const secondAccount = privateKeyToAccount(
  '0x59c6995e998f97a5a0044966f0945389dc9c86dae88c7a8412f4603b6b78690d',
)

/** The address index on the local test chain, every block confirmed at once. */
export function indexConfig(overrides: Partial<AddressIndexConfig> = {}): AddressIndexConfig {
  return {
    chains: new Map([
      [
        31337,
        { chainId: 31337, startBlock: 0n, confirmations: 1, everyAddress: false, native: 'auto' },
      ],
    ]),
    askedPerCaller: 2,
    publicRead: true,
    pollMs: 50,
    ...overrides,
  }
}

/** Two wallets on the test chain, and the ERC-20, ERC-721 and ERC-1155 test tokens deployed. */
export async function deployTokens(url: string) {
  const wallet = (key: Hex | typeof secondAccount) =>
    createWalletClient({
      account: typeof key === 'string' ? privateKeyToAccount(key) : key,
      chain: foundry,
      transport: http(url),
    }).extend(publicActions)
  const first = wallet(anvilAccount.privateKey as Hex)
  const second = wallet(secondAccount)
  const testClient = createTestClient({ mode: 'anvil', chain: foundry, transport: http(url) })
  // anvil funds its first account only, as the tests start it.
  await testClient.setBalance({ address: secondAccount.address, value: 10n ** 20n })
  const deploy = async (abi: Abi, bytecode: Hex) => {
    const hash = await first.deployContract({ abi, bytecode })
    const { contractAddress } = await first.waitForTransactionReceipt({ hash })
    return getAddress(contractAddress!)
  }
  const token = await deploy(token20Abi, token20Bytecode)
  const nft = await deploy(nft721Abi, nft721Bytecode)
  const multi = await deploy(multi1155Abi, multi1155Bytecode)
  const send = async (
    from: typeof first,
    address: Hex,
    abi: Abi,
    functionName: string,
    args: readonly unknown[],
  ) => {
    const hash = await from.writeContract({
      address,
      abi,
      functionName,
      args: args as never,
      account: from.account,
      chain: foundry,
    })
    const receipt = await from.waitForTransactionReceipt({ hash })
    if (receipt.status !== 'success') throw new Error(`${functionName} reverted`)
    return receipt
  }
  return { first, second, testClient, token, nft, multi, send }
}
