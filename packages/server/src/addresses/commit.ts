import { and, eq, gt, inArray, sql } from 'drizzle-orm'
import { rowsOf, textArray, type Database } from '../db/client.ts'
import { syncBlocks, users } from '../db/schema.ts'
import type { ObjectStore, ObjectWrites } from '../objects/object-store.ts'
import { keepBlocks, KEPT_BLOCKS, SYNC_OWNER } from '../sync/store.ts'
import type { Acl } from '../objects/acl.ts'
import type { Document } from '../objects/wire.ts'
import { className } from './classes.ts'
import { confirm } from './confirm.ts'
import type { NativeTransaction, NftTransfer, TokenTransfer } from './read-range.ts'
import {
  balanceRow,
  nftTransferKey,
  nftTransferRow,
  ownerRow,
  rowIdOf,
  tokenTransferKey,
  tokenTransferRow,
  transactionRow,
  type TokenMeta,
} from './rows.ts'
import {
  indexedAddresses,
  indexedTokens,
  indexedTokenUris,
  nativeTransactions,
  nftHoldings,
  nftTransfers,
  tokenBalances,
  tokenTransfers,
} from '../db/address-schema.ts'

// What the index writes for one range of one address group, in ONE transaction: its transfers
// and transactions (a row whose key exists is left alone, so nothing is written twice), the
// balances and holdings they change (summed again from the transfers, exact), rows confirmed by
// the new head, the hashes of recent blocks, and the group's next block. The v1 class rows are
// written in the same transaction, through the store, so live queries and `afterSave` see them.
// A crash anywhere loses nothing: the group resumes from its last committed next block.

export const ZERO = '0x0000000000000000000000000000000000000000'

export interface IndexTarget {
  chainId: number
  /** The name its recent block hashes are kept under (`sync_blocks`). */
  name: string
  confirmations: number
  everyAddress: boolean
  publicRead: boolean
}

export interface RangeWrite {
  /** The addresses whose next block moves (`*` in every address mode). */
  group: string[]
  tokens: (TokenTransfer & { blockTimestamp: Date })[]
  nfts: (NftTransfer & { blockTimestamp: Date })[]
  transactions: (NativeTransaction & { blockTimestamp: Date })[]
  blocks: { number: bigint; hash: string }[]
  /** Metadata and URIs read for tokens and NFTs not known yet. */
  metadata: Map<string, TokenMeta>
  uris: Map<string, string | null>
  confirmThrough: bigint
  confirmFrom: bigint | undefined
  keepFrom: bigint
  nextBlock: bigint
  head: bigint
}

const CHUNK = 400

async function insertChunks<T extends Record<string, unknown>>(
  tx: Database,
  table: Parameters<Database['insert']>[0],
  rows: T[],
): Promise<T[]> {
  const written: T[] = []
  for (let i = 0; i < rows.length; i += CHUNK) {
    const made = (await tx
      .insert(table)
      .values(rows.slice(i, i + CHUNK) as never)
      .onConflictDoNothing()
      .returning()) as unknown as T[]
    written.push(...made)
  }
  return written
}

export function commitRange(
  objects: ObjectStore,
  target: IndexTarget,
  write: RangeWrite,
): Promise<number> {
  const { chainId } = target
  return objects.transaction(async (tx, writes) => {
    const access = accessOf(target)
    await tx.insert(users).values(SYNC_OWNER).onConflictDoNothing()
    if (write.metadata.size)
      await tx
        .insert(indexedTokens)
        .values([...write.metadata].map(([address, meta]) => ({ chainId, address, ...meta })))
        .onConflictDoNothing()
    if (write.uris.size)
      await tx
        .insert(indexedTokenUris)
        .values(
          [...write.uris].map(([key, uri]) => {
            const [tokenAddress, tokenId] = key.split(':') as [string, string]
            return { chainId, tokenAddress, tokenId, uri }
          }),
        )
        .onConflictDoNothing()
    const confirmed = (block: bigint) => block <= write.confirmThrough
    const tokens = await insertChunks(
      tx,
      tokenTransfers,
      write.tokens.map((row) => ({ ...row, chainId, confirmed: confirmed(row.blockNumber) })),
    )
    const nfts = await insertChunks(
      tx,
      nftTransfers,
      write.nfts.map((row) => ({ ...row, chainId, confirmed: confirmed(row.blockNumber) })),
    )
    const transactions = await insertChunks(
      tx,
      nativeTransactions,
      write.transactions.map((row) => ({ ...row, chainId, confirmed: confirmed(row.blockNumber) })),
    )
    const now = new Date()
    await writes.insertMany(
      className(chainId, 'TokenTransfers'),
      access,
      tokens.map((row) => tokenTransferRow(chainId, row)),
      now,
    )
    await writes.insertMany(
      className(chainId, 'NFTTransfers'),
      access,
      nfts.map((row) => nftTransferRow(chainId, row)),
      now,
    )
    await writes.insertMany(
      className(chainId, 'Transactions'),
      access,
      transactions.map((row) => transactionRow(chainId, row)),
      now,
    )
    // Every transfer read counts, not only those new here: one read earlier for another
    // address's history, before this address was indexed, counted for that address alone.
    await recountBalances(tx, writes, target, write.tokens)
    await recountHoldings(tx, writes, target, write.nfts)
    await confirm(tx, writes, chainId, write.confirmThrough, write.confirmFrom)
    await keepBlocks(
      tx,
      target.name,
      write.blocks,
      write.head - KEPT_BLOCKS - BigInt(target.confirmations),
    )
    await tx
      .update(indexedAddresses)
      .set({ nextBlock: write.nextBlock })
      .where(
        and(eq(indexedAddresses.chainId, chainId), inArray(indexedAddresses.address, write.group)),
      )
    return tokens.length + nfts.length + transactions.length
  })
}

/** A reorg: drops every row above `dropAfter` and moves every address's next block back to it. */
export function dropAbove(objects: ObjectStore, target: IndexTarget, dropAfter: bigint) {
  const { chainId } = target
  return objects.transaction(async (tx, writes) => {
    const tokens = await tx
      .delete(tokenTransfers)
      .where(and(eq(tokenTransfers.chainId, chainId), gt(tokenTransfers.blockNumber, dropAfter)))
      .returning()
    const nfts = await tx
      .delete(nftTransfers)
      .where(and(eq(nftTransfers.chainId, chainId), gt(nftTransfers.blockNumber, dropAfter)))
      .returning()
    const transactions = await tx
      .delete(nativeTransactions)
      .where(
        and(eq(nativeTransactions.chainId, chainId), gt(nativeTransactions.blockNumber, dropAfter)),
      )
      .returning({ hash: nativeTransactions.hash })
    const remove = async (kind: Parameters<typeof className>[1], keys: string[]) => {
      if (keys.length)
        await writes.remove(
          className(chainId, kind),
          keys.map((key) => rowIdOf(chainId, kind, key)),
        )
    }
    await remove('TokenTransfers', tokens.map(tokenTransferKey))
    await remove('NFTTransfers', nfts.map(nftTransferKey))
    await remove(
      'Transactions',
      transactions.map((row) => row.hash),
    )
    await recountBalances(tx, writes, target, tokens)
    await recountHoldings(tx, writes, target, nfts)
    await tx
      .update(indexedAddresses)
      .set({ nextBlock: sql`least(${indexedAddresses.nextBlock}, ${dropAfter + 1n})` })
      .where(eq(indexedAddresses.chainId, chainId))
    await tx
      .delete(syncBlocks)
      .where(and(eq(syncBlocks.name, target.name), gt(syncBlocks.number, dropAfter)))
  })
}

function accessOf(target: IndexTarget): { ownerId: string; acl: Acl } {
  return {
    ownerId: SYNC_OWNER.id,
    acl: target.publicRead ? { '*': { read: true as const } } : {},
  }
}

/** The indexed addresses among `addresses` (all but the zero address in every address mode). */
async function indexedAmong(
  tx: Database,
  target: IndexTarget,
  addresses: Iterable<string>,
): Promise<Set<string>> {
  const wanted = [...new Set(addresses)].filter((a) => a !== ZERO)
  if (target.everyAddress || wanted.length === 0) return new Set(wanted)
  const rows = await tx
    .select({ address: indexedAddresses.address })
    .from(indexedAddresses)
    .where(
      and(eq(indexedAddresses.chainId, target.chainId), inArray(indexedAddresses.address, wanted)),
    )
  return new Set(rows.map((row) => row.address))
}

async function metadataOf(tx: Database, chainId: number, tokens: string[]) {
  const known = new Map<string, TokenMeta>()
  if (!tokens.length) return known
  const rows = await tx
    .select()
    .from(indexedTokens)
    .where(and(eq(indexedTokens.chainId, chainId), inArray(indexedTokens.address, tokens)))
  for (const row of rows) known.set(row.address, row)
  return known
}

/** Sums the ERC-20 balances the transfers `changed` touch again, and writes those that moved. */
async function recountBalances(
  tx: Database,
  writes: ObjectWrites,
  target: IndexTarget,
  changed: readonly { tokenAddress: string; fromAddress: string; toAddress: string }[],
) {
  if (!changed.length) return
  const { chainId } = target
  const indexed = await indexedAmong(
    tx,
    target,
    changed.flatMap((row) => [row.fromAddress, row.toAddress]),
  )
  const pairs = new Map<string, { address: string; token: string }>()
  for (const row of changed)
    for (const address of [row.fromAddress, row.toAddress])
      if (indexed.has(address))
        pairs.set(`${address}:${row.tokenAddress}`, { address, token: row.tokenAddress })
  if (!pairs.size) return
  const list = [...pairs.values()]
  const counted = rowsOf<{ address: string; token: string; balance: string; block: string | null }>(
    await tx.execute(sql`
      select p.address, p.token,
        (coalesce((select sum(t.value) from ${tokenTransfers} t where t.chain_id = ${chainId}
            and t.to_address = p.address and t.token_address = p.token), 0)
         - coalesce((select sum(t.value) from ${tokenTransfers} t where t.chain_id = ${chainId}
            and t.from_address = p.address and t.token_address = p.token), 0))::text as balance,
        (select max(t.block_number) from ${tokenTransfers} t where t.chain_id = ${chainId}
            and t.token_address = p.token
            and (t.to_address = p.address or t.from_address = p.address))::text as block
      from unnest(${textArray(list.map((p) => p.address))}, ${textArray(list.map((p) => p.token))})
        as p(address, token)`),
  )
  const before = await heldBefore(tx, tokenBalances, chainId, list)
  const old = new Map(before.map((row) => [`${row.address}:${row.tokenAddress}`, row]))
  const meta = await metadataOf(tx, chainId, [...new Set(list.map((p) => p.token))])
  const name = className(chainId, 'TokenBalance')
  const gone: { address: string; token: string; id: string }[] = []
  const kept: (typeof tokenBalances.$inferInsert)[] = []
  const made = []
  const moved = new Map<string, { fields: Document; fieldsBefore: Document }>()
  for (const row of counted) {
    const was = old.get(`${row.address}:${row.token}`)
    const next = {
      chainId,
      address: row.address,
      tokenAddress: row.token,
      balance: normal(row.balance),
      blockNumber: BigInt(row.block ?? '0'),
    }
    const shaped = balanceRow(chainId, next, meta.get(row.token))
    if (next.balance === '0') {
      if (was) gone.push({ address: row.address, token: row.token, id: shaped.id })
    } else if (!was) {
      kept.push(next)
      made.push(shaped)
    } else if (was.balance !== next.balance || was.blockNumber !== next.blockNumber) {
      kept.push(next)
      moved.set(shaped.id, {
        fields: { balance: next.balance, block_number: Number(next.blockNumber) },
        fieldsBefore: { balance: was.balance, block_number: Number(was.blockNumber) },
      })
    }
  }
  // Each kind of change is one statement, whatever the number of balances the range moved.
  if (gone.length) {
    await tx
      .delete(tokenBalances)
      .where(
        and(
          eq(tokenBalances.chainId, chainId),
          sql`(${tokenBalances.address}, ${tokenBalances.tokenAddress}) in (select * from unnest(${textArray(gone.map((g) => g.address))}, ${textArray(gone.map((g) => g.token))}))`,
        ),
      )
    await writes.remove(
      name,
      gone.map((g) => g.id),
    )
  }
  for (let i = 0; i < kept.length; i += CHUNK)
    await tx
      .insert(tokenBalances)
      .values(kept.slice(i, i + CHUNK))
      .onConflictDoUpdate({
        target: [tokenBalances.chainId, tokenBalances.address, tokenBalances.tokenAddress],
        set: { balance: sql`excluded.balance`, blockNumber: sql`excluded.block_number` },
      })
  await writes.mergeEach(name, moved)
  if (made.length) await writes.insertMany(name, accessOf(target), made, new Date())
}

/** Sums the NFT amounts the transfers `changed` touch again, and writes those that moved. */
async function recountHoldings(
  tx: Database,
  writes: ObjectWrites,
  target: IndexTarget,
  changed: readonly {
    tokenAddress: string
    tokenId: string
    contractType: string
    fromAddress: string
    toAddress: string
  }[],
) {
  if (!changed.length) return
  const { chainId } = target
  const indexed = await indexedAmong(
    tx,
    target,
    changed.flatMap((row) => [row.fromAddress, row.toAddress]),
  )
  const triples = new Map<string, { address: string; token: string; id: string; type: string }>()
  for (const row of changed)
    for (const address of [row.fromAddress, row.toAddress])
      if (indexed.has(address))
        triples.set(`${address}:${row.tokenAddress}:${row.tokenId}`, {
          address,
          token: row.tokenAddress,
          id: row.tokenId,
          type: row.contractType,
        })
  if (!triples.size) return
  const list = [...triples.values()]
  const counted = rowsOf<{
    address: string
    token: string
    id: string
    amount: string
    block: string | null
    minted: string | null
  }>(
    await tx.execute(sql`
      select p.address, p.token, p.id,
        (coalesce((select sum(t.amount) from ${nftTransfers} t where t.chain_id = ${chainId}
            and t.to_address = p.address and t.token_address = p.token and t.token_id = p.id::numeric), 0)
         - coalesce((select sum(t.amount) from ${nftTransfers} t where t.chain_id = ${chainId}
            and t.from_address = p.address and t.token_address = p.token and t.token_id = p.id::numeric), 0))::text
          as amount,
        (select max(t.block_number) from ${nftTransfers} t where t.chain_id = ${chainId}
            and t.token_address = p.token and t.token_id = p.id::numeric
            and (t.to_address = p.address or t.from_address = p.address))::text as block,
        (select min(t.block_number) from ${nftTransfers} t where t.chain_id = ${chainId}
            and t.token_address = p.token and t.token_id = p.id::numeric
            and t.to_address = p.address)::text as minted
      from unnest(${textArray(list.map((p) => p.address))}, ${textArray(list.map((p) => p.token))},
        ${textArray(list.map((p) => p.id))}) as p(address, token, id)`),
  )
  const types = new Map(list.map((p) => [`${p.address}:${p.token}:${p.id}`, p.type]))
  const before = await heldBefore(tx, nftHoldings, chainId, list)
  const old = new Map(
    before.map((row) => [`${row.address}:${row.tokenAddress}:${row.tokenId}`, row]),
  )
  const tokens = [...new Set(list.map((p) => p.token))]
  const meta = await metadataOf(tx, chainId, tokens)
  const uris = new Map<string, string | null>()
  for (const row of await tx
    .select()
    .from(indexedTokenUris)
    .where(
      and(eq(indexedTokenUris.chainId, chainId), inArray(indexedTokenUris.tokenAddress, tokens)),
    ))
    uris.set(`${row.tokenAddress}:${row.tokenId}`, row.uri)
  const name = className(chainId, 'NFTOwners')
  const gone: { address: string; token: string; tokenId: string; id: string }[] = []
  const kept: (typeof nftHoldings.$inferInsert)[] = []
  const made = []
  const moved = new Map<string, { fields: Document; fieldsBefore: Document }>()
  for (const row of counted) {
    const key = `${row.address}:${row.token}:${row.id}`
    const was = old.get(key)
    const amount = normal(row.amount)
    const next = {
      chainId,
      address: row.address,
      tokenAddress: row.token,
      tokenId: row.id,
      contractType: types.get(key)!,
      amount,
      blockNumber: BigInt(row.block ?? '0'),
      blockNumberMinted: BigInt(row.minted ?? row.block ?? '0'),
    }
    const shaped = ownerRow(chainId, next, meta.get(row.token), uris.get(`${row.token}:${row.id}`))
    if (amount === '0' || amount.startsWith('-')) {
      if (was) gone.push({ address: row.address, token: row.token, tokenId: row.id, id: shaped.id })
    } else if (!was) {
      kept.push(next)
      made.push(shaped)
    } else if (was.amount !== amount || was.blockNumber !== next.blockNumber) {
      kept.push(next)
      moved.set(shaped.id, {
        fields: { amount, block_number: Number(next.blockNumber) },
        fieldsBefore: { amount: was.amount, block_number: Number(was.blockNumber) },
      })
    }
  }
  if (gone.length) {
    await tx
      .delete(nftHoldings)
      .where(
        and(
          eq(nftHoldings.chainId, chainId),
          sql`(${nftHoldings.address}, ${nftHoldings.tokenAddress}, ${nftHoldings.tokenId}) in (select a, t, i::numeric from unnest(${textArray(gone.map((g) => g.address))}, ${textArray(gone.map((g) => g.token))}, ${textArray(gone.map((g) => g.tokenId))}) as p(a, t, i))`,
        ),
      )
    await writes.remove(
      name,
      gone.map((g) => g.id),
    )
  }
  for (let i = 0; i < kept.length; i += CHUNK)
    await tx
      .insert(nftHoldings)
      .values(kept.slice(i, i + CHUNK))
      .onConflictDoUpdate({
        target: [
          nftHoldings.chainId,
          nftHoldings.address,
          nftHoldings.tokenAddress,
          nftHoldings.tokenId,
        ],
        set: {
          amount: sql`excluded.amount`,
          blockNumber: sql`excluded.block_number`,
          blockNumberMinted: sql`excluded.block_number_minted`,
        },
      })
  await writes.mergeEach(name, moved)
  if (made.length) await writes.insertMany(name, accessOf(target), made, new Date())
}

/** The balance or holding rows of `list`'s addresses and tokens as they are before a recount. */
function heldBefore<T extends typeof tokenBalances | typeof nftHoldings>(
  tx: Database,
  table: T,
  chainId: number,
  list: readonly { address: string; token: string }[],
): Promise<T['$inferSelect'][]> {
  return tx
    .select()
    .from(table as never)
    .where(
      and(
        eq(table.chainId, chainId),
        inArray(
          table.address,
          list.map((p) => p.address),
        ),
        inArray(
          table.tokenAddress,
          list.map((p) => p.token),
        ),
      ),
    ) as Promise<T['$inferSelect'][]>
}

/** Numeric text as the database prints it, without a fraction (`5.0` never, but be sure). */
function normal(text: string): string {
  return BigInt(text.split('.')[0]!).toString()
}
