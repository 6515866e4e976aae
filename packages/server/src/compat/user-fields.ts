import type { LinkedAddresses } from '../auth/addresses.ts'
import type { Document } from '../objects/wire.ts'
import { ParseCode, ParseError } from './parse-error.ts'

// What a user may write in their own `_User` object through the mount.

/**
 * A user may change their own `_User` fields, but not who they are: `ethAddress` and `accounts`
 * may name only the wallets linked to them (`accounts` always lists them all, whatever the write
 * left in it); `authData`, `sessionToken` and `password` are not theirs to set. `username` is a
 * display name here. Returns the document to store.
 */
export function checkUserWrite(data: Document, linked: readonly string[]): Document {
  const accounts = linked.map((address) => address.toLowerCase())
  const isLinked = (value: unknown) => accounts.includes(String(value).toLowerCase())
  const notLinked = (field: string) =>
    new ParseError(
      ParseCode.OPERATION_FORBIDDEN,
      `${field} may name only wallets linked to you: link a wallet with Moralis.link (signed by it) first.`,
    )
  if (data.ethAddress !== undefined && data.ethAddress !== null && !isLinked(data.ethAddress))
    throw notLinked('ethAddress')
  if (
    data.accounts !== undefined &&
    data.accounts !== null &&
    (!Array.isArray(data.accounts) || !data.accounts.every(isLinked))
  )
    throw notLinked('accounts')
  for (const field of ['authData', 'sessionToken', 'password'])
    if (field in data)
      throw new ParseError(ParseCode.OPERATION_FORBIDDEN, `${field} cannot be set on a user.`)
  // A password user without a wallet has none to name.
  if (accounts.length === 0) return data
  const ethAddress =
    data.ethAddress === undefined || data.ethAddress === null
      ? accounts[0]
      : String(data.ethAddress).toLowerCase()
  return { ...data, ethAddress, accounts }
}

/**
 * The rule a write to an object of `className` by `userId` must pass: for `_User`,
 * `checkUserWrite` with the user's wallets; nothing for other classes.
 */
export async function userFieldsRule(
  linkedAddresses: Pick<LinkedAddresses, 'of'>,
  className: string,
  userId: string,
): Promise<(data: Document) => Document> {
  if (className !== '_User') return (data) => data
  const linked = (await linkedAddresses.of(userId)).map((row) => row.address)
  return (data) => checkUserWrite(data, linked)
}
