import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createPublicClient, createWalletClient, getAddress, http, type Address } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { foundry } from 'viem/chains'
import { anvilAccount, startAnvil, type Anvil } from '@portico/test-kit/anvil'
import { ownerWalletAbi, ownerWalletBytecode } from '../../test/contracts/owner-wallet.ts'
import { databaseKinds, testApp, testConfig } from '../../test/helpers.ts'
import { rpcTestConfig } from '../../test/rpc.ts'
import { getNonce, messageFor, newAccount } from '../../test/siwe.ts'

// Contract wallets (ERC-1271): the server asks the chain whether the wallet accepts the
// signature, through the node connection configured for the chain (RPC_URL_<chainId>).

let anvil: Anvil
let wallet: Address
const owner = newAccount()

beforeAll(async () => {
  anvil = await startAnvil()
  const transport = http(anvil.url)
  const deployer = createWalletClient({
    account: privateKeyToAccount(anvilAccount.privateKey),
    chain: foundry,
    transport,
  })
  const hash = await deployer.deployContract({
    abi: ownerWalletAbi,
    bytecode: ownerWalletBytecode,
    args: [owner.address],
  })
  const receipt = await createPublicClient({ chain: foundry, transport }).waitForTransactionReceipt(
    { hash },
  )
  wallet = getAddress(receipt.contractAddress!)
}, 60_000)
afterAll(() => anvil?.stop())

describe.each(databaseKinds())('contract-wallet sign-in on %s', (kind) => {
  const appFor = (upstreams: Record<number, string[]>) =>
    testApp(kind, {
      rpc: rpcTestConfig(upstreams),
      app: { ...testConfig().app, allowedChainIds: [1, 31337] },
    })

  const verify = async (
    app: Awaited<ReturnType<typeof appFor>>['app'],
    chainId: number,
    signer = owner,
  ) => {
    const nonce = await getNonce(app)
    const message = messageFor(nonce, wallet, { chainId })
    const signature = await signer.signMessage({ message })
    return app.inject({
      method: 'POST',
      url: '/api/auth/verify',
      payload: { message, signature, mode: 'bearer' },
    })
  }

  it('accepts a signature the wallet contract approves (ERC-1271 on anvil)', async () => {
    const { app } = await appFor({ 31337: [anvil.url] })
    const response = await verify(app, 31337)
    expect(response.statusCode).toBe(200)
    expect(response.json().user.address).toBe(wallet)
    const session = await app.inject({
      url: '/api/auth/session',
      headers: { authorization: `Bearer ${response.json().token}` },
    })
    expect(session.json().user.address).toBe(wallet)
  })

  it('refuses a signature the wallet contract rejects', async () => {
    const { app } = await appFor({ 31337: [anvil.url] })
    const response = await verify(app, 31337, newAccount())
    expect(response.statusCode).toBe(401)
    expect(response.json().error.code).toBe('signature_invalid')
  })

  it('cannot check a contract wallet on a chain without a node, and says no', async () => {
    const { app } = await appFor({ 31337: [anvil.url] })
    const response = await verify(app, 1)
    expect(response.statusCode).toBe(401)
    expect(response.json().error.code).toBe('signature_invalid')
  })
})
