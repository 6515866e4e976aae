import { ownerAcl } from '../objects/acl.ts'
import { and, eq, isNull } from 'drizzle-orm'
import type { Database } from '../db/client.ts'
import { users } from '../db/schema.ts'
import type { ObjectStore, ObjectWrites } from '../objects/object-store.ts'
import type { Document } from '../objects/wire.ts'
import {
  addressesOf,
  checkedAddress,
  linkAddress,
  unlinkAddress,
  type LinkedAddress,
} from './addresses.ts'
import { consumeNonce } from './sign-in.ts'

// Linking and unlinking a signed-in user's wallets, wherever it is asked (`/api/auth/link`, the
// compatibility mount's `Moralis.link` / `unlink`). The user's `_User` object (its `accounts`,
// as Moralis kept them) and one `_EthAddress` object per address follow the address rows, in
// the same transaction, so a Parse client reads what signs in.

/** The nonce of the message the new wallet signed, checked like a sign-in's. */
export interface SignedNonce {
  nonce: string
  issuedAt: Date
  skewMs: number
}

/** The `accounts` of a `_User`: its addresses in lower case, as the Moralis clients write them. */
export const accountsOf = (addresses: readonly LinkedAddress[]) =>
  addresses.map((row) => row.address.toLowerCase())

/** The `_EthAddress` object of an address: its id is the address in lower case. */
export const ethAddressRow = (userId: string, address: string) => ({
  id: address.toLowerCase(),
  data: { user: { __type: 'Pointer', className: '_User', objectId: userId } } as Document,
})

/** Locks the user's row: concurrent links and unlinks of one user write `accounts` in turn. */
async function lockUser(tx: Database, userId: string): Promise<void> {
  await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update')
}

/**
 * Links `address` (whose signature over a message with `signed.nonce` was verified) to the user,
 * using up the nonce: both or neither. Returns the user's wallets. Refused with 409
 * `address_taken` when the address is another user's, or as the nonce's state says.
 */
export async function linkWallet(
  objects: ObjectStore,
  input: { userId: string; address: string; signed: SignedNonce },
): Promise<LinkedAddress[]> {
  const address = checkedAddress(input.address)
  const user = await objects.readAsServer({ className: '_User', objectId: input.userId })
  return objects.transaction(async (tx, writes) => {
    await consumeNonce(tx, input.signed)
    await lockUser(tx, input.userId)
    const { linked } = await linkAddress(tx, input.userId, address)
    // A password user's first wallet becomes their primary address.
    const primary = linked
      ? await tx
          .update(users)
          .set({ address })
          .where(and(eq(users.id, input.userId), isNull(users.address)))
          .returning({ id: users.id })
      : []
    const addresses = await addressesOf(tx, input.userId)
    if (linked) {
      await writes.insertNew(
        '_EthAddress',
        { ownerId: input.userId, acl: ownerAcl(input.userId, false) },
        [ethAddressRow(input.userId, address)],
        new Date(),
      )
      if (user)
        await mergeUser(writes, user.data, input.userId, {
          accounts: accountsOf(addresses),
          ...(primary.length ? { ethAddress: address.toLowerCase() } : {}),
        })
    }
    return addresses
  })
}

/**
 * Unlinks one of the user's wallets; it signs in as them no more. A user keeps at least one
 * (409 `last_address`) unless they log in with a password. When it was the `_User`'s `ethAddress`, the primary takes its place.
 */
export async function unlinkWallet(
  objects: ObjectStore,
  userId: string,
  address: string,
): Promise<LinkedAddress[]> {
  const checked = checkedAddress(address)
  const lower = checked.toLowerCase()
  const [user, ethAddress] = await Promise.all([
    objects.readAsServer({ className: '_User', objectId: userId }),
    objects.readAsServer({ className: '_EthAddress', objectId: lower }),
  ])
  return objects.transaction(async (tx, writes) => {
    // (unlinkAddress locks the user's row)
    const { primary } = await unlinkAddress(tx, userId, checked)
    const addresses = await addressesOf(tx, userId)
    if (ethAddress?.owner === userId) await writes.remove('_EthAddress', [lower])
    if (user) {
      const fields: Document = { accounts: accountsOf(addresses) }
      if (String(user.data.ethAddress ?? '').toLowerCase() === lower)
        fields.ethAddress = primary?.toLowerCase() ?? null
      await mergeUser(writes, user.data, userId, fields)
    }
    return addresses
  })
}

async function mergeUser(
  writes: ObjectWrites,
  before: Document,
  userId: string,
  fields: Document,
): Promise<void> {
  const fieldsBefore = Object.fromEntries(Object.keys(fields).map((key) => [key, before[key]]))
  await writes.merge('_User', [userId], fields, fieldsBefore as Document)
}
