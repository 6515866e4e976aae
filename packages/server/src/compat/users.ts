import { ANY_OWNER } from '../objects/access.ts'
import { ownerAcl } from '../objects/acl.ts'
import { getAddress, isAddress, type Address, type Hex } from 'viem'
import { createSiweMessage } from 'viem/siwe'
import { verifySignInSignature, type ChainClients } from '../auth/signature.ts'
import { checkSignInMessage } from '../auth/siwe.ts'
import { accountsOf, ethAddressRow, linkWallet, unlinkWallet } from '../auth/wallets.ts'
import type { WireObject } from '../objects/rows.ts'
import { TOKEN_PREFIX, type CompatAnswer, type CompatCall, type CompatServices } from './call.ts'
import { getFromClass, updateInClass } from './classes.ts'
import { ParseCode, ParseError, toParseError } from './parse-error.ts'
import { toParseObject } from '../objects/parse-shape.ts'
import { isSignUp, signUp, updateLoginFields } from './password-users.ts'

// Sign-in as Moralis v1 clients do it, kept safe:
// - `getServerTime` hands out a single-use server nonce as its `dateTime`; the client pastes it
//   verbatim into the message it signs (`<message>\n\nId: <appId>:<dateTime>`), so a signed
//   legacy message is good for one sign-in, within the nonce lifetime, for this app only. The
//   nonce is used up only after the signature checked out: a forged attempt cannot burn it.
// - `authData.moralisEth.id` must be the signer (compared case-insensitively, as moralis-v1
//   sends lowercase): a signature by wallet B sent with A's id is refused with 101. Contract
//   wallets are checked on chain, like every Portico sign-in.
// - A Sign-In with Ethereum message (e.g. from the `requestMessage` function) gets every check
//   of `POST /api/auth/verify` on the part before the `Id:` suffix, and its own nonce is the one
//   used up.
// Sessions are Portico sessions (stored hashed); the client sees the token with an `r:` prefix,
// which is what makes the v1 clients call `logout`.
//
// A user may have several wallets, each signing in as them. `Moralis.link(account)` saves
// `authData.moralisEth` (signed by the new wallet exactly as for a sign-in) on the user: that
// signature, checked the same way and with its nonce used up, is what links the wallet; the
// `accounts` and `ethAddress` the client writes afterwards are only accepted when they name
// linked wallets. `Moralis.unlink(account)` deletes the wallet's `_EthAddress` object, which
// unlinks it.

const ID_SUFFIX = '\n\nId: '
const SIWE_MARKER = ' wants you to sign in with your Ethereum account:\n'

const authFailed = (why: string) =>
  new ParseError(ParseCode.OBJECT_NOT_FOUND, `Moralis auth failed, invalid data: ${why}`)

interface MoralisAuthData {
  id: string
  signature: Hex
  data: string
}

function readAuthData(value: unknown): MoralisAuthData {
  const auth = value as Partial<Record<keyof MoralisAuthData, unknown>> | null
  if (
    !auth ||
    typeof auth !== 'object' ||
    typeof auth.id !== 'string' ||
    typeof auth.signature !== 'string' ||
    typeof auth.data !== 'string'
  )
    throw authFailed('authData.moralisEth needs "id", "signature" and "data" strings.')
  if (!isAddress(auth.id, { strict: false })) throw authFailed('"id" is not an address.')
  if (!/^0x[0-9a-fA-F]{2,4000}$/.test(auth.signature)) throw authFailed('"signature" is not hex.')
  if (auth.data.length > 8_000) throw authFailed('"data" is too long.')
  return { id: auth.id, signature: auth.signature as Hex, data: auth.data }
}

/** `getServerTime`: a fresh nonce as the `dateTime` the client signs (null with legacy sign-in off). */
export async function serverTime(call: CompatCall): Promise<unknown> {
  if (!call.services.config.compat.legacySignIn) return null
  const nonce = await call.services.nonces.issue(call.services.config.app.nonceTtlMs)
  return { dateTime: nonce.nonce }
}

/** `requestMessage`: a Sign-In with Ethereum message for `address`, with a fresh nonce. */
export async function requestMessage(call: CompatCall): Promise<unknown> {
  const config = call.services.config.app
  const { address, chain } = call.params
  if (typeof address !== 'string' || !isAddress(address, { strict: false }))
    throw new ParseError(ParseCode.SCRIPT_FAILED, 'requestMessage needs an "address".')
  const chainId =
    chain === undefined
      ? config.allowedChainIds[0]!
      : Number(typeof chain === 'string' ? chain : NaN)
  if (!config.allowedChainIds.includes(chainId))
    throw new ParseError(
      ParseCode.SCRIPT_FAILED,
      `Sign-in is possible on chains ${config.allowedChainIds.join(', ')} (got ${String(chain).slice(0, 20)}).`,
    )
  const nonce = await call.services.nonces.issue(config.nonceTtlMs)
  const origin = config.publicOrigins[0]!
  const message = createSiweMessage({
    domain: new URL(origin).host,
    uri: origin,
    address: getAddress(address),
    chainId,
    nonce: nonce.nonce,
    version: '1',
    statement: `Sign in to ${config.appName}.`,
    issuedAt: nonce.issuedAt,
    expirationTime: nonce.expiresAt,
    requestId: config.appId,
  })
  return { id: nonce.nonce, message, profileId: getAddress(address) }
}

/** Splits `<message>\n\nId: <appId>:<dateTime>`; refuses another app's id. */
function splitSuffix(
  data: string,
  appId: string,
): { message: string; dateTime: string | undefined } {
  const at = data.lastIndexOf(ID_SUFFIX)
  if (at < 0) return { message: data, dateTime: undefined }
  const id = data.slice(at + ID_SUFFIX.length)
  if (!id.startsWith(`${appId}:`)) throw authFailed('the message is for another application id.')
  return { message: data.slice(0, at), dateTime: id.slice(appId.length + 1) }
}

/** The wallet that signed `authData.moralisEth`, and the nonce its message carries. */
interface SignedAuthData {
  address: Address
  nonce: string
  chainId: number
  issuedAt: Date
}

/** Refuses a client that has tried to sign in (or link) too often this minute. */
async function limitAttempts(call: CompatCall): Promise<void> {
  const config = call.services.config.app
  const limit = await call.services.windowCounter.add(
    `compat-sign-in:${call.request.ip}`,
    1,
    60_000,
    config.authRateLimit,
  )
  if (limit.count > config.authRateLimit)
    throw new ParseError(
      ParseCode.CONNECTION_FAILED,
      'Too many sign-in attempts: try again in a minute.',
    )
}

/**
 * Checks `authData.moralisEth` as a sign-in: the message (a Sign-In with Ethereum message with
 * every check of `POST /api/auth/verify`, or the legacy message with the server's nonce), and the
 * signature over it by the claimed address (or its contract). The nonce is not used up here.
 */
async function checkAuthData(
  call: CompatCall,
  clientFor: ChainClients,
  value: unknown,
): Promise<SignedAuthData> {
  const { services } = call
  const config = services.config.app
  const auth = readAuthData(value)
  const { message, dateTime } = splitSuffix(auth.data, config.appId)
  const claimed = getAddress(auth.id)
  let nonce: string
  let chainId: number
  let issuedAt = new Date()
  if (message.includes(SIWE_MARKER)) {
    const checked = checkSignInMessage(message, config)
    if (checked.address !== claimed) throw authFailed('"id" is not the address that signed.')
    nonce = checked.nonce
    chainId = checked.chainId
    issuedAt = checked.issuedAt
  } else {
    if (!services.config.compat.legacySignIn)
      throw authFailed('this server accepts only Sign-In with Ethereum messages (requestMessage).')
    if (!dateTime) throw authFailed('the message does not carry the server time it was signed at.')
    nonce = dateTime
    chainId = config.allowedChainIds[0]!
  }
  // The signature over everything the wallet signed, by the claimed address (or its contract).
  await verifySignInSignature(clientFor, {
    message: auth.data,
    signature: auth.signature,
    address: claimed,
    chainId,
  }).catch((error: unknown) => {
    if ((error as { statusCode?: number }).statusCode === 401)
      throw authFailed('"id" is not the address that signed.')
    throw error
  })
  return { address: claimed, nonce, chainId, issuedAt }
}

/** `POST users` with `authData.moralisEth`: verifies, signs in, and answers the user with its token. */
export async function signIn(call: CompatCall, clientFor: ChainClients): Promise<CompatAnswer> {
  const { services } = call
  const config = services.config.app
  const authData = call.params.authData as Record<string, unknown> | undefined
  if (isSignUp(call.params)) return signUp(call)
  if (!authData || typeof authData !== 'object' || !('moralisEth' in authData)) {
    throw new ParseError(
      ParseCode.UNSUPPORTED_SERVICE,
      'Portico signs users in with a wallet (authData.moralisEth) or a username and password; other providers are not available.',
    )
  }
  await limitAttempts(call)
  const signed = await checkAuthData(call, clientFor, authData.moralisEth)
  // A wallet linked to a user signs in as that user.
  const signedIn = await services.signIns.complete({
    nonce: signed.nonce,
    address: signed.address,
    chainId: signed.chainId,
    issuedAt: signed.issuedAt,
    skewMs: config.clockSkewMs,
    userAgent: call.request.headers['user-agent'],
    ttlMs: config.sessionTtlMs,
  })
  const { user, created } = await ensureUserRows(services, signedIn.user)
  return {
    status: created ? 201 : 200,
    body: { ...toParseObject(user), sessionToken: TOKEN_PREFIX + signedIn.token },
  }
}

/**
 * The `_User` object of a user (and an `_EthAddress` object per wallet), made at their first
 * sign-in here: the user may have signed in and linked wallets through `/api` before.
 */
async function ensureUserRows(
  services: Pick<CompatServices, 'linkedAddresses' | 'objects'>,
  user: { id: string; address: string | null },
): Promise<{ user: WireObject; created: boolean }> {
  const { objects } = services
  // Read as the server, as Parse Server does: a signed-in user gets their object even when its
  // ACL shuts them out (`{}`).
  const existing = await objects.get('_User', user.id, ANY_OWNER)
  if (existing) return { user: existing, created: false }
  // A password user's object is made at sign-up (or import); without it there is no user.
  if (user.address === null)
    throw new ParseError(ParseCode.OBJECT_NOT_FOUND, 'This user no longer exists.')
  const accounts = accountsOf(await services.linkedAddresses.of(user.id))
  const primary = user.address.toLowerCase()
  const now = new Date()
  const made = await objects.insertAbsent([
    {
      className: '_User',
      id: user.id,
      ownerId: user.id,
      acl: ownerAcl(user.id, false),
      data: {
        username: primary,
        ethAddress: primary,
        accounts: accounts.length ? accounts : [primary],
      },
      createdAt: now,
      updatedAt: now,
    },
    ...(accounts.length ? accounts : [primary]).map((address) => ({
      className: '_EthAddress',
      ...ethAddressRow(user.id, address),
      ownerId: user.id,
      acl: ownerAcl(user.id, false),
      createdAt: now,
      updatedAt: now,
    })),
  ])
  const madeUser = made.find((object) => object.className === '_User')
  if (madeUser) return { user: madeUser, created: true }
  // Another sign-in of the same user made it a moment ago.
  const raced = await objects.get('_User', user.id, ANY_OWNER)
  if (!raced) throw new ParseError(ParseCode.OBJECT_NOT_FOUND, 'This user no longer exists.')
  return { user: raced, created: false }
}

/**
 * `PUT users/:objectId` and `PUT classes/_User/:objectId`. `authData.moralisEth` signed by
 * another wallet links that wallet to the signed-in user (`Moralis.link`); `null` for it is what
 * `Moralis.unlink` sends after deleting the wallet's `_EthAddress` object, and changes nothing
 * more. The other fields are an ordinary update of the user's own object.
 */
export async function updateUser(
  call: CompatCall,
  objectId: string,
  clientFor: ChainClients,
): Promise<CompatAnswer> {
  try {
    return await updateUserAs(call, objectId, clientFor)
  } catch (error) {
    // Parse Server's answer to a user the caller may not change (someone else's): 206. The
    // caller's own refusals (a forged wallet signature) keep their code.
    if (
      toParseError(error)?.code === ParseCode.OBJECT_NOT_FOUND &&
      !call.master &&
      (await call.session().catch(() => null))?.user.id !== objectId
    )
      throw new ParseError(ParseCode.SESSION_MISSING, 'Insufficient auth.')
    throw error
  }
}

async function updateUserAs(
  call: CompatCall,
  objectId: string,
  clientFor: ChainClients,
): Promise<CompatAnswer> {
  const { authData, ...sent } = call.params
  // A password, username or email of a password user changes their login first.
  const login = await updateLoginFields(call, objectId, sent)
  const fields = login.fields
  if (authData !== undefined) {
    const { user } = await call.requireSession()
    if (objectId !== user.id) throw new ParseError(ParseCode.OBJECT_NOT_FOUND, 'Object not found.')
    if (!authData || typeof authData !== 'object' || Array.isArray(authData))
      throw new ParseError(ParseCode.INCORRECT_TYPE, 'authData must be an object.')
    for (const [provider, value] of Object.entries(authData)) {
      if (provider !== 'moralisEth')
        throw new ParseError(
          ParseCode.UNSUPPORTED_SERVICE,
          `Portico links wallets only (authData.moralisEth), not ${provider.slice(0, 40)}.`,
        )
      if (value === null) continue
      // The clients send the authData they hold again with later saves (Parse Server does not
      // check it again when unchanged): a wallet already linked to the caller needs no nonce.
      const id = (value as { id?: unknown }).id
      if (typeof id === 'string' && isAddress(id, { strict: false })) {
        const owner = await call.services.linkedAddresses.userOf(id)
        if (owner === user.id) continue
      }
      await limitAttempts(call)
      const signed = await checkAuthData(call, clientFor, value)
      await linkWallet(call.services.objects, {
        userId: user.id,
        address: signed.address,
        signed: {
          nonce: signed.nonce,
          issuedAt: signed.issuedAt,
          skewMs: call.services.config.app.clockSkewMs,
        },
      })
    }
  }
  return login.afterUpdate(await updateInClass({ ...call, params: fields }, '_User', objectId))
}

/**
 * `GET users/:objectId` and `GET classes/_User/:objectId`: the user's own object comes with the
 * session token it was asked with, as Parse Server answers it. A client fetching its current
 * user replaces everything it held with the answer, token included.
 */
export async function getUser(call: CompatCall, objectId: string): Promise<CompatAnswer> {
  const answer = await getFromClass(call, '_User', objectId)
  const current = await call.session()
  if (current?.user.id !== objectId || !call.sessionToken) return answer
  return {
    ...answer,
    body: { ...(answer.body as object), sessionToken: TOKEN_PREFIX + call.sessionToken },
  }
}

/** `DELETE classes/_EthAddress/:objectId` (`Moralis.unlink`): unlinks one of the caller's wallets. */
export async function unlinkEthAddress(call: CompatCall, objectId: string): Promise<CompatAnswer> {
  const { user } = await call.requireSession()
  if (!isAddress(objectId, { strict: false }))
    throw new ParseError(ParseCode.OBJECT_NOT_FOUND, 'Object not found.')
  const wallets = await unlinkWallet(call.services.objects, user.id, objectId)
  // Sessions remembered with the old primary address show the new one from now on.
  if (wallets.find((row) => row.primary)?.address !== user.address)
    await call.services.sessions.forget({ userId: user.id })
  return { body: {} }
}

/** `GET users/me`: the caller's user with the token it sent, or 209. */
export async function me(call: CompatCall): Promise<CompatAnswer> {
  const { user } = await call.requireSession()
  const { user: object } = await ensureUserRows(call.services, user)
  return { body: { ...toParseObject(object), sessionToken: TOKEN_PREFIX + call.sessionToken } }
}

/** `POST logout`: ends the caller's session. */
export async function logout(call: CompatCall): Promise<CompatAnswer> {
  // An invalid or expired session has nothing left to end: logging out still succeeds.
  const current = await call.session().catch(() => null)
  if (current && (await call.services.sessions.revoke(current.user.id, current.session.id)))
    await call.services.cloud.triggers.afterLogout(current.user, current.session.id)
  return { body: {} }
}
