import type { FastifyBaseLogger } from 'fastify'
import { BaseError } from 'viem'
import type { ServerConfig } from '../config/server.ts'
import type { WindowCounter } from '../db/cluster/cluster.ts'
import { RateLimited } from '../errors.ts'
import { ParseError } from '../compat/parse-error.ts'
import {
  ADDRESS_ENDPOINTS,
  noAddressIndex,
  type AddressEndpoint,
  type AddressReads,
} from './address-reads.ts'
import { getContractEvents, getLogsByAddress } from './logs.ts'
import { getBlock, getDateToBlock, getNativeBalance, getTransaction } from './native.ts'
import { getTokenAllowance, getTokenMetadata, runContractFunction } from './contract.ts'
import { getPairAddress, getPairReserves, getTokenPrice } from './dex.ts'
import { resolveAddress, resolveDomain } from './resolve.ts'
import {
  getAllTokenIds,
  getContractNFTTransfers,
  getNFTMetadata,
  getNFTOwners,
  getTokenIdMetadata,
  getTokenIdOwners,
  reSyncMetadata,
} from './nfts.ts'
import type { NODE_ENDPOINTS } from './names.ts'
import { NOT_SERVED } from './names.ts'
import { chainOf, refused, v1ChainId } from './input.ts'
import { NftMetadata } from './metadata.ts'
import { Web3ApiStats } from './stats.ts'
import { ChainNodes } from './node.ts'
import type { Endpoint } from './context.ts'

// Moralis v1's Web3 API answered from the site's own nodes: what `POST functions/<name>` runs for
// one of its names (compat/functions.ts), and cloud code's `Moralis.Web3API.*`.

const endpoints: Record<(typeof NODE_ENDPOINTS)[number], Endpoint> = {
  getBlock,
  getDateToBlock,
  getLogsByAddress,
  getTransaction,
  getContractEvents,
  runContractFunction,
  getNativeBalance,
  getTokenMetadata,
  getTokenAllowance,
  getTokenPrice,
  getAllTokenIds,
  getContractNFTTransfers,
  getNFTOwners,
  getNFTMetadata,
  reSyncMetadata,
  getTokenIdMetadata,
  getTokenIdOwners,
  resolveDomain,
  resolveENSDomain: resolveDomain,
  resolveAddress,
  getPairReserves,
  getPairAddress,
}

const addressNames: ReadonlySet<string> = new Set(ADDRESS_ENDPOINTS)

/** Whether `name` is one of the Web3 API's functions (all of them only read). */
export function isWeb3ApiName(name: string): boolean {
  return Object.hasOwn(endpoints, name) || addressNames.has(name) || Object.hasOwn(NOT_SERVED, name)
}

export class Web3Api {
  readonly nodes: ChainNodes
  readonly metadata: NftMetadata
  /** Calls answered by this process, per name (the console's view). */
  readonly stats = new Web3ApiStats()
  /** Where the wallet-wide endpoints read: the address index once it is wired in. */
  addressReads: AddressReads = noAddressIndex
  readonly #aliases = new Map<number, number>()

  constructor(
    private readonly config: ServerConfig,
    private readonly counter: WindowCounter,
    log: FastifyBaseLogger,
  ) {
    this.nodes = new ChainNodes(config.rpc)
    this.metadata = new NftMetadata(config.web3api, log)
    for (const [name, target] of config.web3api.chainAliases) {
      const id = v1ChainId(name)
      if (id !== undefined) this.#aliases.set(id, target)
    }
  }

  /**
   * Answers Web3 API function `name` with the call's parameters, charged to the client address
   * `address` (none: cloud code's own calls). Every refusal and every failure of a node is a
   * ParseError the client shows.
   */
  async answer(
    name: string,
    params: Record<string, unknown>,
    address: string | undefined,
  ): Promise<unknown> {
    if (address !== undefined) await this.#charge(address)
    if (!isWeb3ApiName(name)) throw refused(`${name} is not a Web3 API function.`)
    const started = performance.now()
    let ok = false
    try {
      const answer = await this.#answer(name, params, address ?? 'cloud code')
      ok = true
      return answer
    } finally {
      this.stats.record(name, ok, (performance.now() - started) / 1000)
    }
  }

  async #answer(name: string, params: Record<string, unknown>, caller: string): Promise<unknown> {
    const chainId = chainOf(params.chain, this.#aliases, (id) => this.nodes.serves(id))
    if (addressNames.has(name))
      return this.addressReads.answer(name as AddressEndpoint, chainId, params, caller)
    const endpoint = Object.hasOwn(endpoints, name)
      ? endpoints[name as keyof typeof endpoints]
      : undefined
    if (!endpoint)
      throw refused(
        `${name} is not served by this server: ${NOT_SERVED[name] ?? 'it is not a Web3 API function'}.`,
      )
    try {
      return await endpoint({
        chainId,
        client: this.nodes.client(chainId),
        nodes: this.nodes,
        config: this.config.web3api,
        metadata: this.metadata,
        params,
      })
    } catch (error) {
      if (error instanceof ParseError) throw error
      // The node could not answer (unreachable, refused the range…): said so, never a 5xx.
      const reason = error instanceof BaseError ? error.shortMessage : (error as Error).message
      throw refused(`${name}: the node could not answer: ${String(reason).slice(0, 300)}`)
    }
  }

  /** The chains the address index keeps, or null when there is none. */
  addressIndexed(): { chainIds: number[] } | null {
    return this.addressReads.indexed?.() ?? null
  }

  async #charge(address: string): Promise<void> {
    const max = this.config.web3api.rateLimitPerIp
    const { count, ttlMs } = await this.counter.add(`web3api|ip:${address}`, 1, 60_000, max)
    if (count <= max) return
    const seconds = Math.max(1, Math.ceil(ttlMs / 1000))
    throw new RateLimited(
      `This address may make ${max} Web3 API calls per minute; retry in ${seconds} s.`,
      seconds,
    )
  }

  close(): void {
    this.nodes.close()
  }
}
