import type { Database } from '../db/client.ts'
import type { BlockHeader, NodeClient } from './node-client.ts'
import { recentBlocks } from './store.ts'

/**
 * Where a reorg began for the reader recorded under `name` (a contract sync, the address
 * index of a chain): the last recorded block still on the chain when the newest recorded one is
 * not; undefined when it is.
 */
export async function findReorg(
  db: Database,
  client: NodeClient,
  name: string,
): Promise<bigint | undefined> {
  const recorded = await recentBlocks(db, name)
  if (recorded.length === 0) return undefined
  // A block the node does not have is missing from its answer, and counts as not on the chain.
  // A node that fails to answer tells nothing about the chain: the error fails the step, which
  // is retried, instead of dropping rows a wrong guess would have to read again.
  const current = await client.blocks([recorded[0]!.number])
  if (current.get(recorded[0]!.number)?.hash === recorded[0]!.hash) return undefined
  const chain = await client.blocks(recorded.map((block) => block.number))
  for (const block of recorded)
    if (chain.get(block.number)?.hash === block.hash) return block.number
  return recorded.at(-1)!.number - 1n
}

/**
 * The hash of block `to`, taken before a range ending there is read. Logs read while the node
 * did not have that block yet (a head that moved back in a reorg) would be kept as a complete
 * range, and the block's later hash recorded as if its logs had been read: no reorg would ever
 * be found there. Blocks below `keepFrom` are past any reorg and need no check (undefined).
 */
export async function hashBeforeRead(
  client: NodeClient,
  to: bigint,
  keepFrom: bigint,
): Promise<string | undefined> {
  if (to < keepFrom) return undefined
  const block = (await client.blocks([to])).get(to)
  if (!block) throw new Error(`the node has no block ${to} yet`)
  return block.hash
}

/** Throws when block `to`, read again after the range, is not the block `before` named. */
export function checkUnchanged(
  headers: ReadonlyMap<bigint, BlockHeader>,
  to: bigint,
  before: string | undefined,
): void {
  if (before !== undefined && headers.get(to)?.hash !== before)
    throw new Error('a block changed while it was read; reading again')
}
