import { isAddress } from 'viem'
import { createUser, linkAddress } from '../auth/addresses.ts'
import type { Database } from '../db/client.ts'
import { HttpError } from '../errors.ts'
import type { NewObject } from '../objects/store.ts'
import { RowRefused, type PreparedRow } from './rows.ts'

// A `_User` row becomes a Portico user, who signs in with any of the row's wallets: its
// `ethAddress`, every entry of `accounts` (Moralis kept a user's linked wallets there) and the
// address its `authData.moralisEth` signed in with. The user keeps the row's `objectId` as its id
// unless one of those addresses already signs in as a user, who is then the one imported into.
// Everything here runs in the row's own transaction: a refused row leaves no user and no address.

/** The wallets a `_User` row names, lower-cased, the primary (`ethAddress`) first. */
export function addressesOfRow(row: PreparedRow): string[] {
  const raw = row.raw
  const named: { field: string; value: unknown }[] = []
  if (raw.ethAddress !== undefined && raw.ethAddress !== null)
    named.push({ field: 'ethAddress', value: raw.ethAddress })
  if (raw.accounts !== undefined && raw.accounts !== null) {
    if (!Array.isArray(raw.accounts))
      throw new RowRefused('"accounts" is not a list of wallet addresses', 'accounts')
    raw.accounts.forEach((value, i) => named.push({ field: `accounts[${i}]`, value }))
  }
  const moralis = (raw.authData as { moralisEth?: { id?: unknown } } | undefined)?.moralisEth
  if (moralis?.id !== undefined) named.push({ field: 'authData.moralisEth.id', value: moralis.id })
  const addresses: string[] = []
  for (const { field, value } of named) {
    if (typeof value !== 'string' || !isAddress(value, { strict: false }))
      throw new RowRefused(
        `"${field}" is ${JSON.stringify(value)?.slice(0, 60)}, not a wallet address (0x and 40 hex digits)`,
        field.replace(/\[\d+\]$/, ''),
      )
    const lower = value.toLowerCase()
    if (!addresses.includes(lower)) addresses.push(lower)
  }
  if (addresses.length === 0)
    throw new RowRefused(
      'the user has no wallet address ("ethAddress", "accounts" or authData.moralisEth): Portico users sign in with a wallet',
      'ethAddress',
      'Add the wallet address the user signs in with to the row, or leave the row out.',
    )
  return addresses
}

/**
 * Writes the user of a `_User` row and its address rows in `tx`: returns the Portico user id and
 * the `_EthAddress` objects (one per wallet, as Moralis kept them) to write with the row.
 */
export async function importUser(
  tx: Database,
  row: PreparedRow,
): Promise<{ userId: string; addressObjects: NewObject[] }> {
  const addresses = addressesOfRow(row)
  let userId: string
  try {
    ;({ id: userId } = await createUser(tx, {
      id: row.id,
      address: addresses[0]!,
      firstSignInAt: row.createdAt,
      lastSignInAt: row.updatedAt,
    }))
  } catch (error) {
    if (!(error instanceof HttpError)) throw error
    throw new RowRefused(
      `${error.message.replace(/\.$/, '')}`,
      'objectId',
      'Two users cannot share an id: check that the export is of this site, then run the import again.',
    )
  }
  for (const address of addresses.slice(1)) {
    try {
      await linkAddress(tx, userId, address, row.createdAt)
    } catch (error) {
      if (!(error instanceof HttpError)) throw error
      throw new RowRefused(
        `the wallet ${address} in "accounts" already signs in as another user`,
        'accounts',
        'An address belongs to one user only: remove it from one of the two users in the file, then run the import again.',
      )
    }
  }
  const addressObjects = addresses.map((address) => ({
    className: '_EthAddress',
    id: address,
    ownerId: userId,
    acl: { [userId]: { read: true as const, write: true as const } },
    data: { user: { __type: 'Pointer', className: '_User', objectId: row.id } },
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  }))
  return { userId, addressObjects }
}
