import { eq } from 'drizzle-orm'
import type { FastifyInstance } from 'fastify'
import { SiweMessage } from 'siwe'
import type { LocalAccount } from 'viem/accounts'
import { describe, expect, it } from 'vitest'
import {
  createSignInMessage,
  getNonce as sdkNonce,
  linkedWallets,
  linkWallet,
  unlinkWallet,
  verifySignIn,
} from '@portico/sdk/auth'
import { createBackendClient } from '@portico/sdk/backend'
import { databaseKinds, testApp } from '../../test/helpers.ts'
import { getNonce, messageFor, newAccount, signIn } from '../../test/siwe.ts'
import type { Database } from '../db/client.ts'
import { nonces, userAddresses, users } from '../db/schema.ts'
import { addressesOf, createUser, linkAddress, unlinkAddress, userOfAddress } from './addresses.ts'

/** Signs in with `account` (bearer); the user and headers for later calls. */
async function bearer(app: FastifyInstance, account: LocalAccount) {
  const answer = (await signIn(app, { account, mode: 'bearer' })).response.json()
  return { user: answer.user, headers: { authorization: `Bearer ${answer.token}` } }
}

/** A link message for `account`, signed by `signer` (the same account unless forging). */
async function linkBody(app: FastifyInstance, account: LocalAccount, signer = account) {
  const nonce = await getNonce(app)
  const message = messageFor(nonce, account.address, {
    statement: 'Link this wallet to my account.',
  })
  return { message, signature: await signer.signMessage({ message }) }
}

const link = (
  app: FastifyInstance,
  headers: Record<string, string>,
  body: { message: string; signature: string },
) => app.inject({ method: 'POST', url: '/api/auth/link', headers, payload: body })

const walletsOf = async (app: FastifyInstance, headers: Record<string, string>) =>
  (await app.inject({ url: '/api/auth/wallets', headers })).json().wallets as {
    address: string
    primary: boolean
  }[]

describe.each(databaseKinds())('linked wallets on /api on %s', (kind) => {
  it('links a second wallet with its signature; it then signs in as the same user', async () => {
    const { app } = await testApp(kind)
    const [a, b] = [newAccount(), newAccount()]
    const first = await bearer(app, a)
    const linked = await link(app, first.headers, await linkBody(app, b))
    expect(linked.statusCode).toBe(200)
    expect(linked.json().wallets.map((w: { address: string }) => w.address)).toEqual([
      a.address,
      b.address,
    ])
    expect(linked.json().wallets[0].primary).toBe(true)
    expect(linked.json().wallets[1].primary).toBe(false)

    const second = await bearer(app, b)
    expect(second.user.id).toBe(first.user.id)
    expect(second.user.address).toBe(a.address)
    expect(second.user.addresses).toEqual([a.address, b.address])
    const session = (await app.inject({ url: '/api/auth/session', headers: second.headers })).json()
    expect(session.user).toMatchObject({ id: first.user.id, addresses: [a.address, b.address] })
    expect(await walletsOf(app, second.headers)).toHaveLength(2)
    // Linking it again changes nothing (a fresh signature is still asked for).
    const again = await link(app, first.headers, await linkBody(app, b))
    expect(again.statusCode).toBe(200)
    expect(again.json().wallets).toHaveLength(2)
  })

  it('accepts a message built with the siwe package', async () => {
    const { app } = await testApp(kind)
    const [a, b] = [newAccount(), newAccount()]
    const { headers } = await bearer(app, a)
    const nonce = await getNonce(app)
    const message = new SiweMessage({
      domain: nonce.domain,
      address: b.address,
      statement: 'Link this wallet to my account.',
      uri: nonce.uri,
      version: '1',
      chainId: nonce.chainIds[0]!,
      nonce: nonce.nonce,
      issuedAt: nonce.serverTime,
      expirationTime: nonce.expiresAt,
      requestId: nonce.appId,
    }).prepareMessage()
    const signature = await b.signMessage({ message })
    const answer = await link(app, headers, { message, signature })
    expect(answer.statusCode).toBe(200)
    expect((await bearer(app, b)).user.address).toBe(a.address)
  })

  it('refuses a forged link, a replayed one, an unchecked message, and no session', async () => {
    const { app } = await testApp(kind)
    const [a, b, c] = [newAccount(), newAccount(), newAccount()]
    const { headers } = await bearer(app, a)
    // Signed by c for b's address.
    const forged = await link(app, headers, await linkBody(app, b, c))
    expect(forged.statusCode).toBe(401)
    expect(forged.json().error.code).toBe('signature_invalid')
    expect(await app.services.linkedAddresses.userOf(b.address)).toBeUndefined()

    const body = await linkBody(app, b)
    expect((await link(app, headers, body)).statusCode).toBe(200)
    const replay = await link(app, headers, body)
    expect(replay.statusCode).toBe(401)
    expect(replay.json().error.code).toBe('nonce_used')

    const nonce = await getNonce(app)
    const elsewhere = messageFor(nonce, c.address, { domain: 'evil.example' })
    const wrongDomain = await link(app, headers, {
      message: elsewhere,
      signature: await c.signMessage({ message: elsewhere }),
    })
    expect(wrongDomain.json().error.code).toBe('siwe_domain_mismatch')

    const anonymous = await link(app, {}, await linkBody(app, c))
    expect(anonymous.statusCode).toBe(401)
    expect(await app.services.linkedAddresses.userOf(c.address)).toBeUndefined()
  })

  it("refuses an address that is another user's, and the nonce is not used up", async () => {
    const { app } = await testApp(kind)
    const [a, c] = [newAccount(), newAccount()]
    const alice = await bearer(app, a)
    const carol = await bearer(app, c)
    const body = await linkBody(app, c)
    const taken = await link(app, alice.headers, body)
    expect(taken.statusCode).toBe(409)
    expect(taken.json().error.code).toBe('address_taken')
    expect(await app.services.linkedAddresses.userOf(c.address)).toBe(carol.user.id)
    expect((await bearer(app, c)).user.id).toBe(carol.user.id)
    // The refused link left its nonce unused (one transaction).
    const nonce = /Nonce: (\w+)/.exec(body.message)![1]!
    const [row] = await app.services.database.db
      .select()
      .from(nonces)
      .where(eq(nonces.nonce, nonce))
    expect(row?.consumedAt).toBeNull()
  })

  it('unlinks: the primary passes on, the wallet signs in alone again, the last one stays', async () => {
    const { app } = await testApp(kind)
    const [a, b, c] = [newAccount(), newAccount(), newAccount()]
    const first = await bearer(app, a)
    await link(app, first.headers, await linkBody(app, b))
    const notMine = await app.inject({
      method: 'DELETE',
      url: `/api/auth/wallets/${c.address}`,
      headers: first.headers,
    })
    expect(notMine.statusCode).toBe(404)
    expect(notMine.json().error.code).toBe('address_not_linked')

    const unlinked = await app.inject({
      method: 'DELETE',
      url: `/api/auth/wallets/${a.address}`,
      headers: first.headers,
    })
    expect(unlinked.statusCode).toBe(200)
    expect(unlinked.json().wallets).toMatchObject([{ address: b.address, primary: true }])
    const session = (await app.inject({ url: '/api/auth/session', headers: first.headers })).json()
    expect(session.user.address).toBe(b.address)
    // a is nobody's now: it signs in as a new user.
    const fresh = await bearer(app, a)
    expect(fresh.user.id).not.toBe(first.user.id)
    expect((await bearer(app, b)).user.id).toBe(first.user.id)

    const last = await app.inject({
      method: 'DELETE',
      url: `/api/auth/wallets/${b.address.toLowerCase()}`,
      headers: first.headers,
    })
    expect(last.statusCode).toBe(409)
    expect(last.json().error.code).toBe('last_address')
    const bad = await app.inject({
      method: 'DELETE',
      url: '/api/auth/wallets/0x1234',
      headers: first.headers,
    })
    expect(bad.statusCode).toBe(400)
  })
})

describe.each(databaseKinds())('wallet functions on %s', (kind) => {
  it('create users and link addresses inside a caller’s transaction, all or nothing', async () => {
    const { app } = await testApp(kind)
    const db = app.services.database.db
    const [a, b, c] = [newAccount(), newAccount(), newAccount()]
    await expect(
      db.transaction(async (transaction) => {
        const tx = transaction as unknown as Database
        const made = await createUser(tx, { id: 'imported-1', address: a.address.toLowerCase() })
        expect(made).toEqual({ id: 'imported-1', created: true })
        expect(await linkAddress(tx, 'imported-1', b.address)).toEqual({ linked: true })
        throw new Error('the row is refused')
      }),
    ).rejects.toThrow('the row is refused')
    expect(await userOfAddress(db, a.address)).toBeUndefined()
    expect(await db.select().from(users).where(eq(users.id, 'imported-1'))).toEqual([])

    await db.transaction(async (transaction) => {
      const tx = transaction as unknown as Database
      await createUser(tx, { id: 'imported-1', address: a.address })
      await linkAddress(tx, 'imported-1', b.address.toLowerCase())
    })
    expect((await addressesOf(db, 'imported-1')).map((row) => row.address)).toEqual([
      a.address,
      b.address,
    ])
    // Its accounts sign in as it.
    expect((await bearer(app, b)).user.id).toBe('imported-1')
    // Again: the same user, nothing new.
    expect(await createUser(db, { id: 'imported-1', address: a.address })).toEqual({
      id: 'imported-1',
      created: false,
    })
    expect(await createUser(db, { id: 'other', address: b.address })).toEqual({
      id: 'imported-1',
      created: false,
    })
    await expect(createUser(db, { id: 'imported-1', address: c.address })).rejects.toMatchObject({
      statusCode: 409,
      code: 'user_id_taken',
    })
    const carol = await bearer(app, c)
    await expect(linkAddress(db, 'imported-1', c.address)).rejects.toMatchObject({
      statusCode: 409,
      code: 'address_taken',
    })
    await expect(unlinkAddress(db, carol.user.id, c.address)).rejects.toMatchObject({
      code: 'last_address',
    })
    expect(
      await db.select().from(userAddresses).where(eq(userAddresses.userId, carol.user.id)),
    ).toHaveLength(1)
  })

  it('of two unlinks at once, one is refused: the user keeps a wallet', async () => {
    const { app } = await testApp(kind)
    const db = app.services.database.db
    const [a, b] = [newAccount(), newAccount()]
    const { user } = await bearer(app, a)
    await linkAddress(db, user.id, b.address)
    const both = await Promise.allSettled([
      unlinkAddress(db, user.id, a.address),
      unlinkAddress(db, user.id, b.address),
    ])
    expect(both.filter((r) => r.status === 'fulfilled')).toHaveLength(1)
    expect(await addressesOf(db, user.id)).toHaveLength(1)
    const [row] = await db.select().from(users).where(eq(users.id, user.id))
    expect((await addressesOf(db, user.id))[0]).toMatchObject({
      address: row!.address,
      primary: true,
    })
  })
})

describe.each(databaseKinds())('the SDK links wallets against the server on %s', (kind) => {
  it('links with a second key, signs in with it as the same user, unlinks', async () => {
    const { app } = await testApp(kind)
    const serverUrl = await app.listen({ host: '127.0.0.1', port: 0 })
    const client = () => createBackendClient({ serverUrl, appId: 'portico', retryDelay: 1 })
    const signInWith = async (account: LocalAccount, c = client()) => {
      const nonce = await sdkNonce(c)
      const message = createSignInMessage({ nonce, address: account.address, chainId: 31337 })
      const signature = await account.signMessage({ message })
      return { client: c, ...(await verifySignIn(c, { message, signature, mode: 'bearer' })) }
    }
    const [a, b, c] = [newAccount(), newAccount(), newAccount()]
    const first = await signInWith(a)
    const wallets = await linkWallet(first.client, {
      address: b.address,
      signMessage: (message) => b.signMessage({ message }),
    })
    expect(wallets.map((w) => w.address)).toEqual([a.address, b.address])
    const second = await signInWith(b)
    expect(second.user).toMatchObject({ id: first.user.id, addresses: [a.address, b.address] })
    expect(await linkedWallets(second.client)).toHaveLength(2)

    await signInWith(c)
    await expect(
      linkWallet(first.client, {
        address: c.address,
        signMessage: (message) => c.signMessage({ message }),
      }),
    ).rejects.toMatchObject({ status: 409, code: 'address_taken' })

    expect(await unlinkWallet(second.client, b.address)).toMatchObject([{ address: a.address }])
    expect((await signInWith(b)).user.id).not.toBe(first.user.id)
  })
})
