// The rows a contract-event sync writes: the event's decoded arguments as fields, then these,
// which say where and when it happened. The server writes them; views show them apart.

/** Fields every synced row has beside the event's arguments (an argument of the same name gets a trailing `_`). */
export const syncedRowFields = [
  'event',
  'chainId',
  'address',
  'blockNumber',
  'blockHash',
  'blockTimestamp',
  'transactionHash',
  'transactionIndex',
  'logIndex',
  'confirmed',
] as const

export type SyncedRowField = (typeof syncedRowFields)[number]
