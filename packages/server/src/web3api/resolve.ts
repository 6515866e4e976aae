import { namehash, parseAbi, zeroAddress, type Hex } from 'viem'
import { normalize } from 'viem/ens'
import { addressParam, refused } from './input.ts'
import { readFailure } from './contract.ts'
import type { Endpoint, EndpointContext } from './context.ts'

// ENS names, read from the registry configured for the chain (WEB3API_ENS_<chainId>): the
// registry's resolver for a name, then that resolver's `addr` (or `name`, for a reverse record).

const registryAbi = parseAbi(['function resolver(bytes32 node) view returns (address)'])

const resolverAbi = parseAbi([
  'function addr(bytes32 node) view returns (address)',
  'function name(bytes32 node) view returns (string)',
])

function registryOf({ config, chainId }: EndpointContext, what: string): Hex {
  const registry = config.ens.get(chainId)
  if (!registry)
    throw refused(
      `${what} reads ENS, and chain ${chainId} has no ENS registry configured: set WEB3API_ENS_${chainId}=<registry address>.`,
    )
  return registry as Hex
}

async function resolverOf(context: EndpointContext, registry: Hex, node: Hex) {
  try {
    const resolver = await context.client.readContract({
      address: registry,
      abi: registryAbi,
      functionName: 'resolver',
      args: [node],
    })
    return resolver === zeroAddress ? undefined : resolver
  } catch (error) {
    throw readFailure(error, 'The ENS registry')
  }
}

/** The address an ENS name points at, or undefined. */
async function addressOfName(context: EndpointContext, registry: Hex, name: string) {
  const node = namehash(name)
  const resolver = await resolverOf(context, registry, node)
  if (!resolver) return undefined
  const address = await context.client
    .readContract({ address: resolver, abi: resolverAbi, functionName: 'addr', args: [node] })
    .catch((error: unknown) => {
      throw readFailure(error, 'The ENS resolver')
    })
  return address === zeroAddress ? undefined : address.toLowerCase()
}

export const resolveDomain: Endpoint = async (context) => {
  const registry = registryOf(context, 'resolveDomain')
  const raw = context.params.domain
  if (typeof raw !== 'string' || raw === '' || raw.length > 255)
    throw refused('domain is required: an ENS name such as vitalik.eth.')
  let name: string
  try {
    name = normalize(raw)
  } catch {
    throw refused(`${raw.slice(0, 80)} is not a valid ENS name.`)
  }
  const address = await addressOfName(context, registry, name)
  if (!address) throw refused(`The ENS name ${name} resolves to no address.`)
  return { address }
}

export const resolveAddress: Endpoint = async (context) => {
  const registry = registryOf(context, 'resolveAddress')
  const address = addressParam(context.params)
  const node = namehash(`${address.slice(2)}.addr.reverse`)
  const resolver = await resolverOf(context, registry, node)
  const name = resolver
    ? await context.client
        .readContract({ address: resolver, abi: resolverAbi, functionName: 'name', args: [node] })
        .catch((error: unknown) => {
          throw readFailure(error, 'The ENS reverse resolver')
        })
    : ''
  // A reverse record counts only when the name points back at the address.
  if (!name || (await addressOfName(context, registry, name)) !== address)
    throw refused(`The address ${address} has no ENS name.`)
  return { name }
}
