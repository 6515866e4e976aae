import type { Database } from '../db/client.ts'
import type { NodeClient } from './node-client.ts'
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
  // A block the node no longer has (or cannot give now) counts as not on the chain: the
  // search goes one block further back, and a wrong guess only rewrites rows it re-reads.
  const current = await client.blocks([recorded[0]!.number]).catch(() => undefined)
  if (current?.get(recorded[0]!.number)?.hash === recorded[0]!.hash) return undefined
  const chain = await client.blocks(recorded.map((block) => block.number)).catch(() => undefined)
  for (const block of recorded)
    if (chain?.get(block.number)?.hash === block.hash) return block.number
  return recorded.at(-1)!.number - 1n
}
