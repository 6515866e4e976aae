import { useEffect, useState } from 'react'
import { hashKey, queryOptions, useQuery } from '@tanstack/react-query'
import type { Portico } from '@portico/sdk/portico'
import { connectNode, nodeDefaults } from '@portico/sdk/rpc'
import { usePortico } from './portico-provider.ts'
import { usePorticoQueryClient, useWatchers, type PorticoQueryOptions } from './query-client.ts'

export interface NodeReading {
  blockNumber?: bigint | undefined
  balance?: bigint | undefined
  error?: unknown
  isLoading: boolean
}

const nodeOf = (portico: Portico, chainId: number) =>
  connectNode({ chainId, urls: { [chainId]: portico.nodeUrl(chainId) } })

/** The key of a chain's block number: the chain and the node URL it is read from. */
export type BlockNumberQueryKey = readonly [
  'portico',
  'blockNumber',
  { chainId: number; url: string },
]

/** The key of a balance: chain, node URL, address and block. */
export type BalanceQueryKey = readonly [
  'portico',
  'balance',
  { chainId: number; url: string; address: `0x${string}`; blockNumber: string },
]

/**
 * The chain's latest block number, read through the node connection (`connectNode`).
 * `useNode` reads it again every 4000 ms, once for every component that shows it.
 */
export function blockNumberQueryOptions(
  portico: Portico,
  { chainId }: { chainId: number },
): PorticoQueryOptions<bigint, BlockNumberQueryKey> {
  return queryOptions({
    queryKey: [
      'portico',
      'blockNumber',
      { chainId, url: portico.nodeUrl(chainId) },
    ] as BlockNumberQueryKey,
    queryFn: () => nodeOf(portico, chainId).getBlockNumber(),
    // Kept current by polling, not by being read again when a component mounts or the window
    // gets focus; a failed read is not retried (the next poll reads again).
    staleTime: nodeDefaults.pollingInterval,
    refetchOnWindowFocus: false,
    retry: false,
  })
}

/** The balance of `address` at one block (it never changes: the query is never stale). */
export function balanceQueryOptions(
  portico: Portico,
  {
    chainId,
    address,
    blockNumber,
  }: { chainId: number; address: `0x${string}`; blockNumber: bigint },
): PorticoQueryOptions<bigint, BalanceQueryKey> {
  return queryOptions({
    // Query keys are hashed as JSON, which has no bigint.
    queryKey: [
      'portico',
      'balance',
      { chainId, url: portico.nodeUrl(chainId), address, blockNumber: blockNumber.toString() },
    ] as BalanceQueryKey,
    queryFn: () => nodeOf(portico, chainId).getBalance({ address, blockNumber }),
    staleTime: Infinity,
    retry: false,
  })
}

/**
 * Reads a chain through the node connection (`connectNode`): the block number, followed every
 * block (polling, 4000 ms by default), and the balance of `address`, read again with each new
 * block. Components reading the same chain share one poll.
 */
export function useNode({
  chainId,
  address,
}: {
  chainId: number | undefined
  address?: `0x${string}` | undefined
}): NodeReading {
  const portico = usePortico()
  const queryClient = usePorticoQueryClient()
  const watchers = useWatchers()
  const block = blockNumberQueryOptions(portico, { chainId: chainId ?? 0 })
  const key = hashKey(block.queryKey)

  // One timer per chain, however many components follow it.
  useEffect(() => {
    if (chainId === undefined) return
    return watchers.watch(key, () => {
      const timer = setInterval(
        () =>
          void queryClient.refetchQueries(
            { queryKey: block.queryKey, exact: true },
            // A read still under way is joined, not restarted.
            { cancelRefetch: false },
          ),
        nodeDefaults.pollingInterval,
      )
      return { stop: () => clearInterval(timer) }
    })
    // `block` is made anew on every render, from what `key` names.
  }, [watchers, key, chainId, queryClient])

  const blockQuery = useQuery({ ...block, enabled: chainId !== undefined }, queryClient)
  const blockNumber = blockQuery.data
  const balanceQuery = useQuery(
    {
      ...balanceQueryOptions(portico, {
        chainId: chainId ?? 0,
        address: address ?? '0x',
        blockNumber: blockNumber ?? 0n,
      }),
      enabled: chainId !== undefined && address !== undefined && blockNumber !== undefined,
    },
    queryClient,
  )

  // The balance of the last block read stays shown while the next one loads, and when reading
  // it fails (with the error), as long as chain and address are the same.
  const place = `${chainId}:${address}`
  const [last, setLast] = useState<{ place: string; balance: bigint }>()
  const { data: balanceNow } = balanceQuery
  useEffect(() => {
    if (balanceNow !== undefined) setLast({ place, balance: balanceNow })
  }, [place, balanceNow])
  const balance =
    address === undefined
      ? undefined
      : (balanceNow ?? (last?.place === place ? last.balance : undefined))

  const error = blockQuery.error ?? balanceQuery.error ?? undefined
  return {
    blockNumber,
    balance,
    error,
    isLoading:
      !error && (blockNumber === undefined || (address !== undefined && balance === undefined)),
  }
}
