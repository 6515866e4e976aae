import {
  BaseError,
  ContractFunctionRevertedError,
  erc20Abi,
  type Abi,
  type AbiFunction,
  type Hex,
} from 'viem'
import { addressList, addressParam, blockParam, refused } from './input.ts'
import { atBlock } from './native.ts'
import { plain, type Endpoint, type EndpointContext } from './context.ts'

// Contract reads: `runContractFunction` (any view function, with its ABI), ERC-20 metadata and
// allowances.

/** What a failed contract read tells the caller: the revert reason, or what the node said. */
export function readFailure(error: unknown, what: string): Error {
  if (error instanceof BaseError) {
    const revert = error.walk((cause) => cause instanceof ContractFunctionRevertedError)
    if (revert instanceof ContractFunctionRevertedError)
      return refused(`${what} reverted${revert.reason ? `: ${revert.reason}` : ''}.`)
    return refused(`${what} failed: ${error.shortMessage}`)
  }
  return refused(`${what} failed.`)
}

export const runContractFunction: Endpoint = async ({ client, params }) => {
  const address = addressParam(params)
  const name = params.function_name
  if (typeof name !== 'string' || name === '') throw refused('function_name is required.')
  if (!Array.isArray(params.abi)) throw refused('abi is required: the contract ABI (an array).')
  const abi = params.abi as Abi
  const fn = abi.find(
    (item): item is AbiFunction =>
      typeof item === 'object' && item !== null && item.type === 'function' && item.name === name,
  )
  if (!fn) throw refused(`The abi has no function ${name.slice(0, 64)}.`)
  const given = params.params ?? {}
  if (typeof given !== 'object' || given === null || Array.isArray(given))
    throw refused('params is an object of the function’s arguments by name.')
  const args = fn.inputs.map((input, index) => {
    const value = (given as Record<string, unknown>)[input.name ?? String(index)]
    if (value === undefined) throw refused(`params.${input.name} is required by ${name}.`)
    return value
  })
  try {
    const result = await client.readContract({
      address,
      abi: [fn],
      functionName: name,
      args,
      ...atBlock(blockParam(params, 'to_block')),
    } as never)
    return plain(result)
  } catch (error) {
    throw readFailure(error, name)
  }
}

export interface TokenInfo {
  address: Hex
  name: string | null
  symbol: string | null
  decimals: string | null
}

/** An ERC-20's name, symbol and decimals (each null when the contract does not answer it). */
export async function tokenInfo({ client }: EndpointContext, address: Hex): Promise<TokenInfo> {
  const read = <T>(functionName: 'name' | 'symbol' | 'decimals') =>
    client
      .readContract({ address, abi: erc20Abi, functionName })
      .then((value) => value as T)
      .catch(() => null)
  const [name, symbol, decimals] = await Promise.all([
    read<string>('name'),
    read<string>('symbol'),
    read<number>('decimals'),
  ])
  return { address, name, symbol, decimals: decimals === null ? null : String(decimals) }
}

export const getTokenMetadata: Endpoint = async (context) => {
  const addresses = addressList(context.params, 'addresses', 10)
  const block = await context.client.getBlockNumber()
  return Promise.all(
    addresses.map(async (address) => {
      const info = await tokenInfo(context, address)
      return {
        ...info,
        logo: null,
        logo_hash: null,
        thumbnail: null,
        block_number: String(block),
        validated: null,
        possible_spam: false,
      }
    }),
  )
}

export const getTokenAllowance: Endpoint = async ({ client, params }) => {
  const address = addressParam(params)
  const owner = addressParam(params, 'owner_address')
  const spender = addressParam(params, 'spender_address')
  try {
    const allowance = await client.readContract({
      address,
      abi: erc20Abi,
      functionName: 'allowance',
      args: [owner, spender],
      ...atBlock(blockParam(params, 'to_block')),
    })
    return { allowance: allowance.toString() }
  } catch (error) {
    throw readFailure(error, 'allowance')
  }
}
