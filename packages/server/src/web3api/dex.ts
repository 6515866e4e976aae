import { parseAbi, zeroAddress, type Hex } from 'viem'
import type { DexSettings } from '../config/web3api.ts'
import { addressParam, blockParam, refused } from './input.ts'
import { atBlock } from './native.ts'
import { readFailure, tokenInfo } from './contract.ts'
import type { Endpoint, EndpointContext } from './context.ts'

// Pairs and prices from a Uniswap-v2-style DEX on the chain itself: a factory's `getPair`, a
// pair's `getReserves`. A token's price is read against the chain's wrapped native token, and in
// US dollars through that token's pair with a stablecoin (WEB3API_DEX_<chainId>).

const factoryAbi = parseAbi([
  'function getPair(address tokenA, address tokenB) view returns (address pair)',
])

const pairAbi = parseAbi([
  'function getReserves() view returns (uint112 reserve0, uint112 reserve1, uint32 blockTimestampLast)',
  'function token0() view returns (address)',
])

const EXCHANGE_NAME = 'Uniswap v2'

function dexOf({ config, chainId }: EndpointContext, what: string): DexSettings {
  const dex = config.dex.get(chainId)
  if (!dex)
    throw refused(
      `${what} reads a Uniswap-v2-style DEX on chain ${chainId}, and none is configured: set WEB3API_DEX_${chainId}=<factory>,<wrapped native token>,<USD stablecoin>.`,
    )
  return dex
}

async function pairOf(context: EndpointContext, factory: Hex, a: Hex, b: Hex, block?: bigint) {
  try {
    const pair = await context.client.readContract({
      address: factory,
      abi: factoryAbi,
      functionName: 'getPair',
      args: [a, b],
      ...atBlock(block),
    })
    return pair === zeroAddress ? undefined : (pair.toLowerCase() as Hex)
  } catch (error) {
    throw readFailure(error, 'The factory’s getPair')
  }
}

async function reservesOf(context: EndpointContext, pair: Hex, block?: bigint) {
  try {
    const [[reserve0, reserve1], token0] = await Promise.all([
      context.client.readContract({
        address: pair,
        abi: pairAbi,
        functionName: 'getReserves',
        ...atBlock(block),
      }),
      context.client.readContract({ address: pair, abi: pairAbi, functionName: 'token0' }),
    ])
    return { reserve0, reserve1, token0: token0.toLowerCase() as Hex }
  } catch (error) {
    throw readFailure(error, `getReserves of ${pair}`)
  }
}

export const getPairReserves: Endpoint = async (context) => {
  const pair = addressParam(context.params, 'pair_address')
  const { reserve0, reserve1 } = await reservesOf(
    context,
    pair,
    blockParam(context.params, 'to_block'),
  )
  return { reserve0: reserve0.toString(), reserve1: reserve1.toString() }
}

export const getPairAddress: Endpoint = async (context) => {
  const { params } = context
  const a = addressParam(params, 'token0_address')
  const b = addressParam(params, 'token1_address')
  const dex = dexOf(context, 'getPairAddress')
  const pair = await pairOf(context, dex.factory as Hex, a, b, blockParam(params, 'to_block'))
  if (!pair) throw refused(`The factory ${dex.factory} has no pair of ${a} and ${b}.`)
  // The pair orders its tokens by address, as the factory made it.
  const [first, second] = a < b ? [a, b] : [b, a]
  const [token0, token1] = await Promise.all([
    tokenInfo(context, first),
    tokenInfo(context, second),
  ])
  return { token0, token1, pairAddress: pair }
}

/** How many of `quote`'s smallest units one whole `token` is worth in their pair. */
async function priceIn(
  context: EndpointContext,
  dex: DexSettings,
  token: Hex,
  tokenDecimals: number,
  quote: Hex,
  block?: bigint,
): Promise<bigint> {
  if (token === quote) return 10n ** BigInt(tokenDecimals)
  const pair = await pairOf(context, dex.factory as Hex, token, quote, block)
  if (!pair) throw refused(`No pair of ${token} with ${quote} on the factory ${dex.factory}.`)
  const { reserve0, reserve1, token0 } = await reservesOf(context, pair, block)
  const [ofToken, ofQuote] = token0 === token ? [reserve0, reserve1] : [reserve1, reserve0]
  if (ofToken === 0n) throw refused(`The pair ${pair} holds no liquidity.`)
  return (ofQuote * 10n ** BigInt(tokenDecimals)) / ofToken
}

export const getTokenPrice: Endpoint = async (context) => {
  const { params } = context
  const address = addressParam(params)
  const block = blockParam(params, 'to_block')
  const dex = dexOf(context, 'getTokenPrice')
  if (!dex.usd)
    throw refused(
      `getTokenPrice reads US dollar prices through a stablecoin paired with the wrapped native token, and none is configured: add it to WEB3API_DEX_${context.chainId}=<factory>,<wrapped native token>,<USD stablecoin>.`,
    )
  const [token, quote, usd] = await Promise.all([
    tokenInfo(context, address),
    tokenInfo(context, dex.quote as Hex),
    tokenInfo(context, dex.usd as Hex),
  ])
  if (token.decimals === null) throw refused(`${address} is not an ERC-20 token (no decimals).`)
  const decimals = Number(token.decimals)
  const quoteDecimals = Number(quote.decimals ?? 18)
  const usdDecimals = Number(usd.decimals ?? 6)
  const native = await priceIn(context, dex, address, decimals, dex.quote as Hex, block)
  const usdPerQuote =
    address === dex.usd
      ? undefined
      : await priceIn(context, dex, dex.quote as Hex, quoteDecimals, dex.usd as Hex, block)
  const usdPrice =
    usdPerQuote === undefined
      ? 1
      : (Number(native) / 10 ** quoteDecimals) * (Number(usdPerQuote) / 10 ** usdDecimals)
  return {
    tokenName: token.name,
    tokenSymbol: token.symbol,
    tokenLogo: null,
    tokenDecimals: token.decimals,
    nativePrice: {
      value: native.toString(),
      decimals: quoteDecimals,
      name: quote.name,
      symbol: quote.symbol,
    },
    usdPrice,
    usdPriceFormatted: String(usdPrice),
    exchangeAddress: dex.factory,
    exchangeName: EXCHANGE_NAME,
    tokenAddress: address,
  }
}
