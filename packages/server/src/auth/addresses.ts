import { and, asc, eq, sql } from 'drizzle-orm'
import { getAddress, isAddress, type Address } from 'viem'
import type { Database } from '../db/client.ts'
import { passwordLogins, userAddresses, users } from '../db/schema.ts'
import { HttpError } from '../errors.ts'

// The wallets of a user. Every address that signs in is a row of `user_addresses`, which says
// whose it is: a user's first address (also kept as `users.address`, the primary) and each one
// linked since. An address belongs to one user only (the table's key).
//
// Each function takes a `Database` that may be a transaction: the import creates users and links
// their accounts inside its own. Functions that need several statements run them in a nested
// transaction (a savepoint when the caller already opened one).

/** A wallet linked to a user. */
export interface LinkedAddress {
  /** Checksummed. */
  address: Address
  linkedAt: Date
  /** The user's first address (`users.address`), shown for the user in the console. */
  primary: boolean
}

export const addressTaken = () =>
  new HttpError(
    409,
    'address_taken',
    'This wallet already belongs to another account: sign in with it and unlink it there first.',
  )

const notLinked = () =>
  new HttpError(404, 'address_not_linked', 'This wallet is not linked to your account.')

/** The checksummed form of `address`, or a 400 naming what is wrong. */
export function checkedAddress(address: string): Address {
  if (!isAddress(address, { strict: false }))
    throw new HttpError(400, 'invalid_value', 'A wallet address is 0x and 40 hex digits.')
  return getAddress(address)
}

/** The user an address signs in as, if it is linked to one. */
export async function userOfAddress(db: Database, address: string): Promise<string | undefined> {
  const [row] = await db
    .select({ userId: userAddresses.userId })
    .from(userAddresses)
    .where(eq(userAddresses.address, checkedAddress(address)))
  return row?.userId
}

/** The wallets of a user: the primary first, then in the order they were linked. */
export async function addressesOf(db: Database, userId: string): Promise<LinkedAddress[]> {
  const rows = await db
    .select({
      address: userAddresses.address,
      linkedAt: userAddresses.linkedAt,
      primary: sql<boolean>`${userAddresses.address} = ${users.address}`,
    })
    .from(userAddresses)
    .innerJoin(users, eq(users.id, userAddresses.userId))
    .where(eq(userAddresses.userId, userId))
    .orderBy(sql`${userAddresses.address} = ${users.address} desc`, asc(userAddresses.linkedAt))
  return rows.map((row) => ({ ...row, address: row.address as Address, primary: !!row.primary }))
}

/** Reads of the wallets linked to users, for routes (which hold no transaction of their own). */
export class LinkedAddresses {
  readonly #db: Database

  constructor(db: Database) {
    this.#db = db
  }

  /** The wallets of a user: the primary first, then in the order they were linked. */
  of(userId: string): Promise<LinkedAddress[]> {
    return addressesOf(this.#db, userId)
  }

  /** The user an address signs in as, if it is linked to one. */
  userOf(address: string): Promise<string | undefined> {
    return userOfAddress(this.#db, address)
  }

  /** The user whose primary address (`users.address`) is `address`, checksummed. */
  async primaryUserOf(address: Address): Promise<string | undefined> {
    const [user] = await this.#db
      .select({ id: users.id })
      .from(users)
      .where(eq(users.address, address))
    return user?.id
  }
}

/**
 * Links `address` to the user. Linking an address the user already has changes nothing
 * (`linked: false`); an address of another user is refused with 409 `address_taken`.
 */
export async function linkAddress(
  db: Database,
  userId: string,
  address: string,
  linkedAt = new Date(),
): Promise<{ linked: boolean }> {
  const checked = checkedAddress(address)
  const inserted = await db
    .insert(userAddresses)
    .values({ address: checked, userId, linkedAt })
    .onConflictDoNothing()
    .returning({ address: userAddresses.address })
  if (inserted.length) return { linked: true }
  const owner = await userOfAddress(db, checked)
  if (owner === userId) return { linked: false }
  // Another user's, or unlinked by its owner a moment ago: either way not linked here now.
  throw addressTaken()
}

/**
 * Unlinks one of the user's addresses: it no longer signs in as them (and may be linked to
 * someone else). A user keeps at least one (409 `last_address`) unless they log in with a
 * password. When the primary goes, the earliest linked of the others becomes the primary.
 * Returns the new primary (null when a password user unlinked their last wallet).
 */
export async function unlinkAddress(
  db: Database,
  userId: string,
  address: string,
): Promise<{ primary: Address | null }> {
  const checked = checkedAddress(address)
  return db.transaction(async (transaction) => {
    const tx = transaction as unknown as Database
    // The user's row is the lock: two unlinks at once must not leave the user without any.
    const [user] = await tx
      .select({ address: users.address })
      .from(users)
      .where(eq(users.id, userId))
      .for('update')
    if (!user) throw notLinked()
    const owned = await addressesOf(tx, userId)
    if (!owned.some((row) => row.address === checked)) throw notLinked()
    const rest = owned.filter((row) => row.address !== checked)
    const [login] = rest.length
      ? []
      : await tx
          .select({ id: passwordLogins.userId })
          .from(passwordLogins)
          .where(eq(passwordLogins.userId, userId))
    if (rest.length === 0 && !login)
      throw new HttpError(
        409,
        'last_address',
        'This is the only wallet of your account: link another one before unlinking it.',
      )
    await tx
      .delete(userAddresses)
      .where(and(eq(userAddresses.address, checked), eq(userAddresses.userId, userId)))
    // A password user may go back to having no wallet.
    const primary = rest.length
      ? (rest.find((row) => row.primary)?.address ?? earliest(rest))
      : null
    if (primary !== user.address)
      await tx.update(users).set({ address: primary }).where(eq(users.id, userId))
    return { primary }
  })
}

const earliest = (rows: LinkedAddress[]) =>
  [...rows].sort((a, b) => a.linkedAt.getTime() - b.linkedAt.getTime())[0]!.address

/**
 * Creates a user whose first (primary) address is `address`, with its address row, at once
 * (for the import: a `_User` with its `objectId` and times). An address that already signs in
 * as a user gives that user (`created: false`); an id already taken by a user of another
 * address is refused with 409 `user_id_taken`.
 */
export async function createUser(
  db: Database,
  user: { id: string; address: string; firstSignInAt?: Date; lastSignInAt?: Date },
): Promise<{ id: string; created: boolean }> {
  const address = checkedAddress(user.address)
  return db.transaction(async (transaction) => {
    const tx = transaction as unknown as Database
    const existing = await userOfAddress(tx, address)
    if (existing) return { id: existing, created: false }
    const firstSignInAt = user.firstSignInAt ?? new Date()
    const made = await tx
      .insert(users)
      .values({
        id: user.id,
        address,
        firstSignInAt,
        lastSignInAt: user.lastSignInAt ?? firstSignInAt,
      })
      .onConflictDoNothing()
      .returning({ id: users.id })
    if (!made.length) {
      // The id is taken, or a concurrent sign-in made this address's user a moment ago.
      const [holder] = await tx
        .select({ id: users.id })
        .from(users)
        .where(eq(users.address, address))
      if (holder) {
        await linkAddress(tx, holder.id, address, firstSignInAt)
        return { id: holder.id, created: false }
      }
      throw new HttpError(
        409,
        'user_id_taken',
        `The user id ${user.id.slice(0, 64)} already belongs to a user with another wallet.`,
      )
    }
    await linkAddress(tx, user.id, address, firstSignInAt)
    return { id: user.id, created: true }
  })
}
