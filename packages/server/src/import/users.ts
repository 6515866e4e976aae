import { isAddress } from 'viem'
import { createUser, linkAddress } from '../auth/addresses.ts'
import {
  BCRYPT_HASH,
  clashOf,
  createPasswordUser,
  NO_PASSWORD,
  type LoginClash,
} from '../auth/passwords.ts'
import { passwordLogins } from '../db/schema.ts'
import type { Database } from '../db/client.ts'
import { HttpError } from '../errors.ts'
import type { NewObject } from '../objects/object-store.ts'
import { RowRefused, type PreparedRow } from './rows.ts'

// A `_User` row becomes a Portico user, who signs in with any of the row's wallets: its
// `ethAddress`, every entry of `accounts` (Moralis kept a user's linked wallets there) and the
// address its `authData.moralisEth` signed in with, and with their Parse password when the row
// carries its bcrypt hash (`_hashed_password` or `bcryptPassword`). A row with a username but
// neither (a Parse Dashboard export never carries hashes) is still imported, so that the pointers
// and ACLs naming the user hold: its login opens with no password until the user resets it by
// mail. The user keeps the row's `objectId` as its id
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
  return addresses
}

/**
 * The bcrypt hash a `_User` row carries: `_hashed_password` (Parse Server's column, in a
 * database dump) or `bcryptPassword` (Parse.com's export); undefined when it has none.
 */
export function passwordHashOfRow(row: PreparedRow): string | undefined {
  for (const field of ['_hashed_password', 'bcryptPassword']) {
    const value = row.raw[field]
    if (value === undefined || value === null) continue
    if (typeof value !== 'string' || !BCRYPT_HASH.test(value))
      throw new RowRefused(
        `"${field}" is not a bcrypt hash ($2a$, $2b$ or $2y$, as Parse Server stores passwords)`,
        field,
      )
    return value
  }
  return undefined
}

/** The row's login: its username and email as Parse checks them, and its hash. */
function loginOfRow(row: PreparedRow, passwordHash: string) {
  const { username, email, emailVerified } = row.raw
  if (typeof username !== 'string' || username === '')
    throw new RowRefused('the user has a password but no "username" to log in with', 'username')
  if (email !== undefined && email !== null && typeof email !== 'string')
    throw new RowRefused('"email" is not text', 'email')
  return {
    username,
    email: (email as string | null | undefined) ?? undefined,
    emailVerified: emailVerified === true,
    passwordHash,
  }
}

const loginClash = (clash: LoginClash | 'id') =>
  new RowRefused(
    clash === 'id'
      ? 'a user with this objectId already exists'
      : `another user already logs in with this ${clash}`,
    clash === 'id' ? 'objectId' : clash,
    clash === 'id'
      ? 'Two users cannot share an id: check that the export is of this site, then run the import again.'
      : `Usernames and emails are unique (whatever their case): change the ${clash} of one of the two users in the file, then run the import again.`,
  )

/**
 * Writes the user of a `_User` row and its address rows in `tx`: returns the Portico user id and
 * the `_EthAddress` objects (one per wallet, as Moralis kept them) to write with the row.
 */
export async function importUser(
  tx: Database,
  row: PreparedRow,
): Promise<{ userId: string; addressObjects: NewObject[]; withoutPassword?: true }> {
  const addresses = addressesOfRow(row)
  const passwordHash = passwordHashOfRow(row)
  if (addresses.length === 0) {
    if (passwordHash === undefined && (typeof row.raw.username !== 'string' || !row.raw.username))
      throw new RowRefused(
        'the user has no wallet address ("ethAddress", "accounts" or authData.moralisEth) and no "username": it could not sign in',
        'ethAddress',
        'Add the wallet address or the username the user signs in with to the row, or leave the row out.',
      )
    // A password user: they log in with their Parse password, checked against the same hash, or
    // once they set one by a reset when the export has none.
    const made = await createPasswordUser(tx, {
      id: row.id,
      ...loginOfRow(row, passwordHash ?? NO_PASSWORD),
      createdAt: row.createdAt,
    })
    if ('clash' in made) throw loginClash(made.clash)
    return {
      userId: made.id,
      addressObjects: [],
      ...(passwordHash === undefined ? { withoutPassword: true as const } : {}),
    }
  }
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
  // A wallet user with a password keeps both ways in.
  if (passwordHash !== undefined) {
    const login = loginOfRow(row, passwordHash)
    const clash = await clashOf(tx, { userId, ...login })
    if (clash) throw loginClash(clash)
    await tx
      .insert(passwordLogins)
      .values({ userId, ...login, email: login.email ?? null, passwordChangedAt: row.createdAt })
      .onConflictDoNothing()
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
