// The server's own principals. Objects name an owner by user id, and what the server writes by
// itself (a contract sync, an import, the master key, a signed-out create, a deleted user's
// objects kept) needs one: each is a row of the users table with an address nobody holds. They
// are not people: the console leaves them out of Users and its counts, and shows them by what
// they are.

export const PLACEHOLDER_USERS = {
  sync: {
    id: 'portico-sync',
    address: '0x0000000000000000000000000000000000000000',
    label: 'sync',
  },
  import: {
    id: 'portico-import',
    address: '0x0000000000000000000000000000000000000001',
    label: 'import',
  },
  master: {
    id: 'portico-master',
    address: '0x0000000000000000000000000000000000000002',
    label: 'master key',
  },
  visitor: {
    id: 'portico-visitor',
    address: '0x0000000000000000000000000000000000000003',
    label: 'signed-out visitor',
  },
  deleted: {
    id: 'portico-deleted-user',
    address: '0x0000000000000000000000000000000000000004',
    label: 'deleted user',
  },
} as const

const byKey = new Map<string, string>(
  Object.values(PLACEHOLDER_USERS).flatMap((user) => [
    [user.id, user.label],
    [user.address, user.label],
  ]),
)

/** What a placeholder principal is ("sync", "master key"…), by user id or address; else undefined. */
export function placeholderLabel(idOrAddress: string | null | undefined): string | undefined {
  return idOrAddress ? byKey.get(idOrAddress.toLowerCase()) : undefined
}

/** The user ids of the placeholder principals. */
export const placeholderUserIds: readonly string[] = Object.values(PLACEHOLDER_USERS).map(
  (user) => user.id,
)
