import { and, eq, gt, lte } from 'drizzle-orm'
import type { Database } from '../db/client.ts'
import { nativeTransactions, nftTransfers, tokenTransfers } from '../db/address-schema.ts'
import type { ObjectWrites } from '../objects/object-store.ts'
import { className } from './classes.ts'
import { nftTransferKey, rowIdOf, tokenTransferKey } from './rows.ts'

// Rows are written unconfirmed and flipped in place once the chain's confirmations are on top
// of them, their v1 class rows too (an `update` for live subscribers, a second `afterSave`).

/** Flips the rows of blocks up to `through` (above `from`, when known) to confirmed. */
export async function confirm(
  tx: Database,
  writes: ObjectWrites,
  chainId: number,
  through: bigint,
  from: bigint | undefined,
) {
  const tables = [
    { kind: 'TokenTransfers', table: tokenTransfers, key: tokenTransferKey },
    { kind: 'NFTTransfers', table: nftTransfers, key: nftTransferKey },
    { kind: 'Transactions', table: nativeTransactions, key: (row: { hash: string }) => row.hash },
  ] as const
  for (const { kind, table, key } of tables) {
    const flipped = (await tx
      .update(table)
      .set({ confirmed: true })
      .where(
        and(
          eq(table.chainId, chainId),
          eq(table.confirmed, false),
          lte(table.blockNumber, through),
          from === undefined ? undefined : gt(table.blockNumber, from),
        ),
      )
      .returning()) as never[]
    if (flipped.length)
      await writes.merge(
        className(chainId, kind),
        flipped.map((row) => rowIdOf(chainId, kind, (key as (row: never) => string)(row))),
        { confirmed: true },
        { confirmed: false },
      )
  }
}
