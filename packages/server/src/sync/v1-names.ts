// The names Moralis v1 gave a synced event row's fields where Portico's differ: v1 apps read
// (and the compatibility mount shows) a row's stored field under these.

/** Portico's field names that v1 rows spelled otherwise, with v1's. */
export const RENAMED: Readonly<Record<string, string>> = {
  transactionHash: 'transaction_hash',
  transactionIndex: 'transaction_index',
  logIndex: 'log_index',
  blockNumber: 'block_number',
  blockHash: 'block_hash',
  blockTimestamp: 'block_timestamp',
}

/** The names v1 apps read a synced row's stored `field` under (besides its own). */
export function v1NamesOf(field: string): string[] {
  const name = field === 'id' ? 'uid' : (RENAMED[field] ?? field)
  return [name, `${name}_decimal`]
}
