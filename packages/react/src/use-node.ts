import { useEffect, useState } from 'react'
import { connectNode } from '@portico/sdk/rpc'
import { usePortico } from './portico-provider.ts'

export interface NodeReading {
  blockNumber?: bigint | undefined
  balance?: bigint | undefined
  error?: unknown
  isLoading: boolean
}

/**
 * Reads a chain through the node connection (`connectNode`): the block number, followed every
 * block (polling, 4000 ms by default), and the balance of `address`, refreshed with each block.
 */
export function useNode({
  chainId,
  address,
}: {
  chainId: number | undefined
  address?: `0x${string}` | undefined
}): NodeReading {
  const portico = usePortico()
  const [reading, setReading] = useState<NodeReading>({ isLoading: true })

  useEffect(() => {
    if (chainId === undefined) return
    setReading({ isLoading: true })
    let active = true
    const client = connectNode({ chainId, urls: { [chainId]: portico.nodeUrl(chainId) } })
    const read = async (blockNumber: bigint) => {
      try {
        const balance = address ? await client.getBalance({ address, blockNumber }) : undefined
        if (active) setReading({ blockNumber, balance, isLoading: false })
      } catch (error) {
        if (active) setReading((r) => ({ ...r, error, isLoading: false }))
      }
    }
    const unwatch = client.watchBlockNumber({
      emitOnBegin: true,
      onBlockNumber: (blockNumber) => void read(blockNumber),
      onError: (error) => active && setReading((r) => ({ ...r, error, isLoading: false })),
    })
    return () => {
      active = false
      unwatch()
    }
  }, [portico, chainId, address])

  return reading
}
