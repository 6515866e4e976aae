import { createRequire } from 'node:module'
import {
  createWalletClient,
  getAddress,
  http,
  namehash,
  parseUnits,
  publicActions,
  type Abi,
  type Hex,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { foundry } from 'viem/chains'
import { anvilAccount } from '@portico/test-kit/anvil'
import {
  testEnsAbi,
  testEnsBytecode,
  testMultiAbi,
  testMultiBytecode,
  testNftAbi,
  testNftBytecode,
  testTokenAbi,
  testTokenBytecode,
} from '@portico/test-kit/tokens'

// A chain for the Web3 API tests: ERC-20 tokens (a token, wrapped ether, a dollar), an ERC-721
// and an ERC-1155 whose token URIs point at `metadataUrl`, Uniswap v2's own factory and router
// (their published builds) with two pairs funded through the router, and an ENS-like registry
// naming the first account.

const require = createRequire(import.meta.url)
const uniswapFactory = require('@uniswap/v2-core/build/UniswapV2Factory.json') as {
  abi: Abi
  bytecode: string
}
const uniswapRouter = require('@uniswap/v2-periphery/build/UniswapV2Router02.json') as {
  abi: Abi
  bytecode: string
}

/** A second holder: an address nobody signs for (tokens are only sent to it). */
export const holder = '0x00000000000000000000000000000000000b0b00' as const

export async function deployWeb3Chain(url: string, metadataUrl: string) {
  const wallet = createWalletClient({
    account: privateKeyToAccount(anvilAccount.privateKey),
    chain: foundry,
    transport: http(url),
  }).extend(publicActions)
  const me = anvilAccount.address.toLowerCase() as Hex
  const deploy = async (abi: Abi, bytecode: Hex, args: unknown[]) => {
    const hash = await wallet.deployContract({ abi, bytecode, args })
    const receipt = await wallet.waitForTransactionReceipt({ hash })
    return receipt.contractAddress!.toLowerCase() as Hex
  }
  const send = async (address: Hex, abi: Abi, functionName: string, args: unknown[]) => {
    const hash = await wallet.writeContract({ address, abi, functionName, args } as never)
    return wallet.waitForTransactionReceipt({ hash })
  }
  const token = await deploy(testTokenAbi, testTokenBytecode, ['Gold', 'GLD', 18])
  const weth = await deploy(testTokenAbi, testTokenBytecode, ['Wrapped Ether', 'WETH', 18])
  const usd = await deploy(testTokenAbi, testTokenBytecode, ['Dollar', 'USD', 6])
  const mintTx = await send(token, testTokenAbi, 'mint', [me, parseUnits('5000', 18)])
  await send(token, testTokenAbi, 'transfer', [holder, parseUnits('25', 18)])
  await send(token, testTokenAbi, 'approve', [holder, 1234n])

  const factory = await deploy(
    uniswapFactory.abi,
    `0x${uniswapFactory.bytecode.replace(/^0x/, '')}`,
    [me],
  )
  const router = await deploy(uniswapRouter.abi, `0x${uniswapRouter.bytecode.replace(/^0x/, '')}`, [
    factory,
    weth,
  ])
  // Liquidity as a site adds it: through the router, which makes the pair at the address its
  // library derives from the pair's code (so the factory and router builds must agree).
  const pairOf = async (a: Hex, b: Hex, amountA: bigint, amountB: bigint) => {
    for (const [t, amount] of [
      [a, amountA],
      [b, amountB],
    ] as const) {
      await send(t, testTokenAbi, 'mint', [me, amount])
      await send(t, testTokenAbi, 'approve', [router, amount])
    }
    const deadline = BigInt(Math.floor(Date.now() / 1000) + 3600)
    await send(router, uniswapRouter.abi, 'addLiquidity', [
      a,
      b,
      amountA,
      amountB,
      amountA,
      amountB,
      me,
      deadline,
    ])
    return (
      (await wallet.readContract({
        address: factory,
        abi: uniswapFactory.abi,
        functionName: 'getPair',
        args: [a, b],
      })) as string
    ).toLowerCase() as Hex
  }
  // 1,000 GLD for 2 WETH (a GLD is 0.002 WETH); 10 WETH for 30,000 USD (a WETH is $3,000).
  const goldPair = await pairOf(token, weth, parseUnits('1000', 18), parseUnits('2', 18))
  const usdPair = await pairOf(weth, usd, parseUnits('10', 18), parseUnits('30000', 6))

  const nft = await deploy(testNftAbi, testNftBytecode, ['Cats', 'CAT'])
  await send(nft, testNftAbi, 'mint', [me, 1n, `${metadataUrl}/cat/1.json`])
  await send(nft, testNftAbi, 'mint', [me, 2n, `${metadataUrl}/cat/2.json`])
  await send(nft, testNftAbi, 'mint', [me, 3n, `${metadataUrl}/cat/3.json`])
  const nftTransfer = await send(nft, testNftAbi, 'transferFrom', [me, holder, 2n])
  const multi = await deploy(testMultiAbi, testMultiBytecode, [`${metadataUrl}/multi/{id}.json`])
  await send(multi, testMultiAbi, 'mint', [me, 7n, 5n])
  await send(multi, testMultiAbi, 'mint', [holder, 7n, 3n])

  const ens = await deploy(testEnsAbi, testEnsBytecode, [])
  await send(ens, testEnsAbi, 'setAddr', [namehash('alice.eth'), me])
  await send(ens, testEnsAbi, 'setName', [namehash(`${me.slice(2)}.addr.reverse`), 'alice.eth'])

  return {
    wallet,
    me,
    token,
    weth,
    usd,
    factory,
    router,
    goldPair,
    usdPair,
    nft,
    multi,
    ens,
    mintTx,
    nftTransfer,
    checksum: getAddress,
    send,
  }
}

export type Web3Chain = Awaited<ReturnType<typeof deployWeb3Chain>>
