import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'
import bcrypt from 'bcryptjs'
import { eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { listeningApp, parseLogIn, type ListeningApp } from '../../test/compat.ts'
import { databaseKinds } from '../../test/helpers.ts'
import { startSmtp, type TestSmtp } from '../../test/smtp.ts'
import { loadConfig } from '../config/server.ts'
import { objects, passwordLogins } from '../db/schema.ts'
import { importFile } from '../import/parse-import.ts'

// Username/password users through the real `parse` client (Node build): sign-up, log-in,
// become, password change by save, and the reset and verification mails, received by a real
// SMTP server and followed as a user would. Then users imported from a Parse export with
// their bcrypt hashes log in with their old passwords.

const require = createRequire(import.meta.url)
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- loose SDK types
const Parse = require('parse/node') as any

/** A published bcrypt test vector (OpenBSD's reference implementation): "abc", cost 6. */
const REFERENCE_HASH = '$2a$06$If6bvum7DFjUnE9p2uDeDu0YHzrHM6tf.iqN8.yx.jNN1ILEf7h0i'

function restOf(server: ListeningApp) {
  return async (
    method: string,
    path: string,
    body?: unknown,
    token?: string,
  ): Promise<{ status: number; body: Record<string, unknown> }> => {
    // A GET's parameters go in the query string, as REST clients send them.
    const query =
      method === 'GET' && body !== undefined
        ? `?${new URLSearchParams(body as Record<string, string>).toString()}`
        : ''
    const response = await fetch(`${server.serverUrl}/${path}${query}`, {
      method,
      headers: {
        'content-type': 'application/json',
        'x-parse-application-id': 'portico',
        ...(token ? { 'x-parse-session-token': token } : {}),
      },
      body: body === undefined || method === 'GET' ? undefined : JSON.stringify(body),
    })
    return { status: response.status, body: (await response.json()) as Record<string, unknown> }
  }
}

/** The link a mail carries. */
const linkOf = (text: string) => /https?:\/\/\S+/.exec(text)![0]

/** Submits the reset page's form as a browser does. */
async function submitReset(link: string, password: string, confirm = password) {
  const token = new URL(link).searchParams.get('token')!
  const response = await fetch(link.split('?')[0]!, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ token, password, confirm }).toString(),
  })
  return { status: response.status, html: await response.text() }
}

describe.each(databaseKinds())('password users through the parse SDK on %s', (kind) => {
  let server: ListeningApp
  let smtp: TestSmtp
  let rest: ReturnType<typeof restOf>

  beforeAll(async () => {
    smtp = await startSmtp()
    server = await listeningApp(kind, {
      mail: { smtpUrl: smtp.url, from: 'Shop <no-reply@shop.test>' },
    })
    rest = restOf(server)
    Parse.initialize('portico')
    Parse.serverURL = server.serverUrl
    Parse.User.enableUnsafeCurrentUser()
  })
  afterAll(async () => {
    await Parse.User.logOut().catch(() => {})
    await server.close()
    await smtp.close()
  })

  it('signs up, logs out and in, becomes, and never shows the password', async () => {
    const ann = await Parse.User.signUp('Ann', 'first secret', {
      email: 'ann@shop.test',
      displayName: 'Ann',
    })
    expect(ann.getSessionToken()).toMatch(/^r:/)
    expect(Parse.User.current().id).toBe(ann.id)
    const token = ann.getSessionToken()
    await Parse.User.logOut()
    expect(Parse.User.current()).toBeNull()

    const again = await Parse.User.logIn('Ann', 'first secret')
    expect(again.id).toBe(ann.id)
    expect(again.getSessionToken()).not.toBe(token)
    expect(again.get('displayName')).toBe('Ann')
    expect(again.getEmail()).toBe('ann@shop.test')
    expect(again.get('emailVerified')).toBe(false)
    expect(again.get('password')).toBeUndefined()

    // Parse's answers to wrong credentials: 101 whether the name or the password is wrong.
    await expect(Parse.User.logIn('Ann', 'wrong')).rejects.toMatchObject({
      code: 101,
      message: 'Invalid username/password.',
    })
    await expect(Parse.User.logIn('Nobody', 'first secret')).rejects.toMatchObject({ code: 101 })
    // Usernames are compared exactly at log-in, as Parse does.
    await expect(Parse.User.logIn('ann', 'first secret')).rejects.toMatchObject({ code: 101 })

    // The logged-out session is over; the live one becomes the user.
    await expect(Parse.User.become(token)).rejects.toMatchObject({ code: 209 })
    const became = await Parse.User.become(again.getSessionToken())
    expect(became.id).toBe(ann.id)
    // The SDK resolves to the user's JSON here, as Parse Server answers it.
    expect((await Parse.User.verifyPassword('Ann', 'first secret')).objectId).toBe(ann.id)
    await expect(Parse.User.verifyPassword('Ann', 'nope')).rejects.toMatchObject({ code: 101 })

    // Nothing that reads objects holds the password or its hash.
    const read = await new Parse.Query(Parse.User).get(ann.id)
    expect(JSON.stringify(read.toJSON())).not.toMatch(/first secret|\$2[aby]\$/)
    const [stored] = await server.app.services.database.db
      .select({ text: sql<string>`${objects.data}::text` })
      .from(objects)
      .where(eq(objects.id, ann.id))
    expect(stored!.text).not.toMatch(/first secret|\$2[aby]\$|password/)
    const [login] = await server.app.services.database.db
      .select()
      .from(passwordLogins)
      .where(eq(passwordLogins.userId, ann.id))
    expect(login!.passwordHash).toMatch(/^\$2b\$10\$/)
    expect(await bcrypt.compare('first secret', login!.passwordHash)).toBe(true)
    // Sign-up with an email sent the verification mail.
    expect((await smtp.next('ann@shop.test')).subject).toMatch(/Confirm your email/)
  })

  it('keeps a user able to sign in whatever their ACL, as Parse Server does', async () => {
    // A sign-up's ACL always keeps the user's own read and write.
    const hermit = await Parse.User.signUp('Hermit', 'quiet please', {
      ACL: new Parse.ACL(),
      motto: 'alone',
    })
    await hermit.fetch()
    expect(hermit.getACL().toJSON()).toEqual({ [hermit.id]: { read: true, write: true } })
    // Shut out by a later save, they still log in and get their object.
    hermit.setACL(new Parse.ACL())
    await hermit.save()
    await Parse.User.logOut()
    const again = await Parse.User.logIn('Hermit', 'quiet please')
    expect(again.get('motto')).toBe('alone')
    expect(again.getACL().toJSON()).toEqual({})
    expect((await Parse.User.verifyPassword('Hermit', 'quiet please')).motto).toBe('alone')
    const became = await Parse.User.become(again.getSessionToken())
    expect(became.get('motto')).toBe('alone')
    // Their object stays unreadable to queries, their own included.
    await expect(new Parse.Query(Parse.User).get(again.id)).rejects.toMatchObject({ code: 101 })
    await Parse.User.logOut()
  })

  it("refuses sign-ups and log-ins as Parse Server does, with Parse's codes", async () => {
    await expect(Parse.User.signUp('ANN', 'x')).rejects.toMatchObject({
      code: 202,
      message: 'Account already exists for this username.',
    })
    await expect(Parse.User.signUp('ann2', 'x', { email: 'ANN@shop.test' })).rejects.toMatchObject({
      code: 203,
      message: 'Account already exists for this email address.',
    })
    await expect(Parse.User.signUp('ann3', 'x', { email: 'not-an-email' })).rejects.toMatchObject({
      code: 125,
    })
    // What the SDK checks itself before sending, asked directly.
    expect(await rest('POST', 'users', { password: 'x' })).toMatchObject({
      status: 400,
      body: { code: 200, error: 'bad or missing username' },
    })
    expect(await rest('POST', 'users', { username: 'cy' })).toMatchObject({
      status: 400,
      body: { code: 201 },
    })
    expect(await rest('POST', 'login', { password: 'x' })).toMatchObject({ body: { code: 200 } })
    expect(await rest('POST', 'login', { username: 'Ann' })).toMatchObject({ body: { code: 201 } })
    expect(await rest('POST', 'login', { username: 'Ann', password: 5 })).toMatchObject({
      status: 404,
      body: { code: 101 },
    })
    expect(
      await rest('POST', 'users', { username: 'dee', password: 'x'.repeat(73) }),
    ).toMatchObject({ body: { code: 142 } })
    // A client may not mark its email verified, nor set another provider's authData.
    expect(
      await rest('POST', 'users', { username: 'eve', password: 'x', emailVerified: true }),
    ).toMatchObject({ body: { code: 119 } })
    // Log-in by email, as the REST API allows.
    const byEmail = await rest('GET', 'login', { email: 'ann@shop.test', password: 'first secret' })
    expect(byEmail).toMatchObject({ status: 200, body: { username: 'Ann' } })
    expect(byEmail.body.sessionToken).toMatch(/^r:/)
  })

  it('a new password by save ends every other session; the saver gets a new token', async () => {
    const bea = await Parse.User.signUp('bea', 'one')
    const first = bea.getSessionToken()
    const second = (await Parse.User.logIn('bea', 'one')).getSessionToken()
    const current = Parse.User.current()
    current.setPassword('two')
    await current.save()
    const third = Parse.User.current().getSessionToken()
    expect(third).toMatch(/^r:/)
    expect([first, second]).not.toContain(third)
    expect((await rest('GET', 'users/me', undefined, first)).body).toMatchObject({ code: 209 })
    expect((await rest('GET', 'users/me', undefined, second)).body).toMatchObject({ code: 209 })
    expect((await rest('GET', 'users/me', undefined, third)).body).toMatchObject({
      objectId: bea.id,
    })
    await expect(Parse.User.logIn('bea', 'one')).rejects.toMatchObject({ code: 101 })
    expect((await Parse.User.logIn('bea', 'two')).id).toBe(bea.id)
    // Another user cannot change it, nor delete it: Parse's 206.
    const other = await Parse.User.signUp('cat', 'three')
    expect(
      await rest('PUT', `users/${bea.id}`, { password: 'mine' }, other.getSessionToken()),
    ).toMatchObject({ body: { code: 206, error: 'Insufficient auth.' } })
    const beaSeen = Parse.User.createWithoutData(bea.id)
    beaSeen.set('nickname', 'mine now')
    await expect(beaSeen.save()).rejects.toMatchObject({ code: 206 })
    await expect(Parse.Object.saveAll([beaSeen])).rejects.toMatchObject({ code: 206 })
    await expect(beaSeen.destroy()).rejects.toMatchObject({ code: 206 })
    // A username taken by another user is refused on save too.
    other.set('username', 'BEA')
    await expect(other.save()).rejects.toMatchObject({ code: 202 })
  })

  it('resets a password through the mailed link, once', async () => {
    const dan = await Parse.User.signUp('dan', 'old password', { email: 'dan@shop.test' })
    const danToken = dan.getSessionToken()
    await smtp.next('dan@shop.test') // the verification mail
    await Parse.User.requestPasswordReset('dan@shop.test')
    const mail = await smtp.next('dan@shop.test')
    expect(mail.subject).toMatch(/Reset your .* password/)
    const link = linkOf(mail.text)
    expect(link.startsWith(`${server.serverUrl}/password-reset?token=`)).toBe(true)

    const form = await fetch(link)
    expect(form.status).toBe(200)
    expect(form.headers.get('cache-control')).toBe('no-store')
    expect(await form.text()).toContain('name="password"')
    expect((await submitReset(link, 'new password', 'other')).status).toBe(400)
    const done = await submitReset(link, 'new password')
    expect(done).toMatchObject({ status: 200 })
    expect(done.html).toContain('Your password was changed')
    // The link works once; the old password and the old sessions are gone.
    expect((await submitReset(link, 'third password')).status).toBe(400)
    expect((await fetch(link)).status).toBe(400)
    await expect(Parse.User.logIn('dan', 'old password')).rejects.toMatchObject({ code: 101 })
    expect((await rest('GET', 'users/me', undefined, danToken)).body).toMatchObject({ code: 209 })
    expect((await Parse.User.logIn('dan', 'new password')).id).toBe(dan.id)

    // An unknown address gets the same answer and no mail; a missing one, Parse's 204.
    await Parse.User.requestPasswordReset('nobody@shop.test')
    expect(await rest('POST', 'requestPasswordReset', {})).toMatchObject({ body: { code: 204 } })
    expect(await rest('POST', 'requestPasswordReset', { email: 5 })).toMatchObject({
      body: { code: 125 },
    })
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(smtp.mails.some((m) => m.to.includes('nobody@shop.test'))).toBe(false)
  })

  it('verifies an email through the mailed link', async () => {
    const eva = await Parse.User.signUp('eva', 'pw', { email: 'eva@shop.test' })
    const first = await smtp.next('eva@shop.test')
    // Asking again sends a new link; the first one stops working.
    await Parse.User.requestEmailVerification('eva@shop.test')
    const second = await smtp.next('eva@shop.test')
    expect((await fetch(linkOf(first.text))).status).toBe(400)
    const page = await fetch(linkOf(second.text))
    expect(page.status).toBe(200)
    expect(await page.text()).toContain('eva@shop.test is confirmed')
    await eva.fetch()
    expect(eva.get('emailVerified')).toBe(true)
    await expect(Parse.User.requestEmailVerification('eva@shop.test')).rejects.toMatchObject({
      code: -1,
      message: 'Email eva@shop.test is already verified.',
    })
    await expect(Parse.User.requestEmailVerification('nobody@shop.test')).rejects.toMatchObject({
      code: 205,
    })
    // A new email is unverified again, and gets its own mail.
    eva.setEmail('eva@elsewhere.test')
    await eva.save()
    await eva.fetch()
    expect(eva.get('emailVerified')).toBe(false)
    expect((await smtp.next('eva@elsewhere.test')).subject).toMatch(/Confirm your email/)
  })

  it('links a wallet to a password user: both sign in as them', async () => {
    const lin = await Parse.User.signUp('lin', 'pw')
    const wallet = privateKeyToAccount(generatePrivateKey())
    const { dateTime } = (await Parse.Cloud.run('getServerTime')) as { dateTime: string }
    const data = `Link my wallet\n\nId: portico:${dateTime}`
    await lin.linkWith('moralisEth', {
      authData: {
        id: wallet.address.toLowerCase(),
        signature: await wallet.signMessage({ message: data }),
        data,
      },
    })
    await Parse.User.logOut()
    const viaWallet = await parseLogIn(Parse, wallet)
    expect(viaWallet.id).toBe(lin.id)
    expect(viaWallet.get('ethAddress')).toBe(wallet.address.toLowerCase())
    expect(viaWallet.get('accounts')).toEqual([wallet.address.toLowerCase()])
    expect((await Parse.User.logIn('lin', 'pw')).id).toBe(lin.id)
    // With a password to fall back on, the only wallet may be unlinked again.
    expect(
      await rest(
        'DELETE',
        `classes/_EthAddress/${wallet.address.toLowerCase()}`,
        undefined,
        Parse.User.current().getSessionToken(),
      ),
    ).toMatchObject({ status: 200 })
    // The wallet is free again: it signs in as a new user of its own.
    expect((await parseLogIn(Parse, wallet)).id).not.toBe(lin.id)
    await Parse.User.logOut()
  })

  it('keeps wallet users as they were: no password on them', async () => {
    const wallet = privateKeyToAccount(generatePrivateKey())
    const user = (await parseLogIn(Parse, wallet)) as unknown as {
      id: string
      setPassword(p: string): void
      save(): Promise<unknown>
    }
    user.setPassword('secret')
    await expect(user.save()).rejects.toMatchObject({ code: 119 })
    // Other providers are refused clearly.
    expect(
      await rest('POST', 'users', { authData: { facebook: { id: '1', access_token: 'x' } } }),
    ).toMatchObject({ body: { code: 252 } })
    await Parse.User.logOut()
  })

  it('keeps usernames unique across wallet and password users, with 202', async () => {
    const taken = { code: 202, message: 'Account already exists for this username.' }
    const wallet = privateKeyToAccount(generatePrivateKey())
    const walletUser = (await parseLogIn(Parse, wallet)) as typeof Parse
    const captain = `captain${Date.now()}`
    walletUser.set('username', captain)
    await walletUser.save()
    await Parse.User.logOut()

    // Its username, in any case, and its address (its username until changed) are taken.
    for (const username of [captain, captain.toUpperCase(), wallet.address.toLowerCase()])
      await expect(
        new Parse.User({ username, password: 'correct horse battery' }).signUp(),
      ).rejects.toMatchObject(taken)
    expect(
      await rest('POST', 'users', { username: captain, password: 'correct horse battery' }),
    ).toEqual({ status: 400, body: { code: 202, error: taken.message } })

    // A password user and the wallet user cannot take each other's names by a save either.
    const mate = `mate${Date.now()}`
    const passwordUser = await new Parse.User({
      username: mate,
      password: 'correct horse battery',
    }).signUp()
    passwordUser.set('username', captain)
    await expect(passwordUser.save()).rejects.toMatchObject(taken)
    await Parse.User.logOut()
    const again = (await parseLogIn(Parse, wallet)) as typeof Parse
    again.set('username', mate.toUpperCase())
    await expect(again.save()).rejects.toMatchObject(taken)
    await Parse.User.logOut()

    const holders = await server.app.services.database.db
      .select({ id: objects.id })
      .from(objects)
      .where(
        sql`${objects.className} = '_User' and lower(${objects.data} ->> 'username') = ${captain}`,
      )
    expect(holders.map((row) => row.id)).toEqual([walletUser.id])
  })
})

describe.each(databaseKinds())('a server without SMTP, with cloud code, on %s', (kind) => {
  let server: ListeningApp

  beforeAll(async () => {
    const app = loadConfig({}).app
    server = await listeningApp(kind, {
      app: { ...app, authRateLimit: 4 },
      // Its beforeLogin refuses users marked banned.
      cloudCode: fileURLToPath(new URL('../../test/fixtures/cloud-parse', import.meta.url)),
    })
  })
  afterAll(() => server.close())

  it("runs cloud code's beforeLogin for password log-ins; /api has no profile for them", async () => {
    const rest = restOf(server)
    const made = await rest('POST', 'users', { username: 'gus', password: 'pw' })
    const token = String(made.body.sessionToken)
    const session = await fetch(`${server.origin}/api/auth/session`, {
      headers: { authorization: `Bearer ${token.slice(2)}` },
    })
    expect(session.status).toBe(403)
    expect(
      await rest('PUT', `users/${String(made.body.objectId)}`, { banned: true }, token),
    ).toMatchObject({ status: 200 })
    expect(await rest('POST', 'login', { username: 'gus', password: 'pw' })).toMatchObject({
      body: { code: 101, error: 'You are banned.' },
    })
  })

  it('refuses mail requests clearly (not as a failure to retry), and limits log-in attempts', async () => {
    const rest = restOf(server)
    expect(
      await rest('POST', 'users', { username: 'fay', password: 'pw', email: 'fay@shop.test' }),
    ).toMatchObject({ status: 201 })
    for (const path of ['requestPasswordReset', 'verificationEmailRequest'])
      expect(await rest('POST', path, { email: 'fay@shop.test' })).toMatchObject({
        status: 400,
        body: { code: 1, error: expect.stringContaining('SMTP_URL is not set') },
      })
    // The limit (4 a minute here) counts sign-ups and log-ins alike; the count starts again
    // each minute, so of ten tries at least the last ones are refused.
    const tries = []
    for (let i = 0; i < 10; i++)
      tries.push(await rest('POST', 'login', { username: 'fay', password: `guess ${i}` }))
    const codes = tries.map((t) => t.body.code)
    expect(codes[0]).toBe(101)
    expect(codes.every((code) => code === 101 || code === 100)).toBe(true)
    expect(tries.at(-1)).toMatchObject({ status: 429, body: { code: 100 } })
  })
})

describe.each(databaseKinds())('users imported with their Parse passwords on %s', (kind) => {
  let server: ListeningApp

  beforeAll(async () => {
    server = await listeningApp(kind)
    Parse.initialize('portico')
    Parse.serverURL = server.serverUrl
  })
  afterAll(async () => {
    await Parse.User.logOut().catch(() => {})
    await server.close()
  })

  it('log in with their old passwords, and the hashes stay out of their objects', async () => {
    const wallet = privateKeyToAccount(generatePrivateKey())
    const rows = [
      // A Parse Server database dump: the column as Parse Server writes it.
      {
        objectId: 'gRaCe00001',
        username: 'grace',
        email: 'grace@old.test',
        emailVerified: true,
        _hashed_password: REFERENCE_HASH,
        createdAt: '2021-03-01T10:00:00.000Z',
        updatedAt: '2021-03-02T10:00:00.000Z',
        ACL: { gRaCe00001: { read: true, write: true } },
      },
      // Parse.com's export, hashed by bcrypt (the library Parse Server uses) with a $2b$ prefix.
      {
        objectId: 'hAnK000001',
        username: 'hank',
        bcryptPassword: bcrypt.hashSync('hank old password', 10),
        createdAt: '2021-03-01T10:00:00.000Z',
        updatedAt: '2021-03-01T10:00:00.000Z',
      },
      // A Moralis user with a wallet and a password: both sign in.
      {
        objectId: 'iRiS000001',
        username: 'iris',
        ethAddress: wallet.address.toLowerCase(),
        _hashed_password: bcrypt.hashSync('iris pw', 10),
        createdAt: '2021-03-01T10:00:00.000Z',
        updatedAt: '2021-03-01T10:00:00.000Z',
      },
      {
        objectId: 'jOe0000001',
        username: 'joe',
        _hashed_password: 'plain text',
        createdAt: '2021-03-01T10:00:00.000Z',
      },
      {
        objectId: 'kIm0000001',
        username: 'GRACE',
        _hashed_password: REFERENCE_HASH,
        createdAt: '2021-03-01T10:00:00.000Z',
      },
    ]
    const report = await importFile(server.app.services.database.db, server.app.services.objects, {
      name: '_User.json',
      text: JSON.stringify(rows),
    })
    expect(report.imported).toBe(3)
    expect(report.refused).toEqual([
      expect.objectContaining({ objectId: 'jOe0000001', field: '_hashed_password' }),
      expect.objectContaining({ objectId: 'kIm0000001', field: 'username' }),
    ])

    const grace = await Parse.User.logIn('grace', 'abc')
    expect(grace.id).toBe('gRaCe00001')
    expect(grace.get('emailVerified')).toBe(true)
    expect(JSON.stringify(grace.toJSON())).not.toMatch(/\$2[aby]\$/)
    await expect(Parse.User.logIn('grace', 'abd')).rejects.toMatchObject({ code: 101 })
    expect((await Parse.User.logIn('hank', 'hank old password')).id).toBe('hAnK000001')
    expect((await Parse.User.logIn('iris', 'iris pw')).id).toBe('iRiS000001')
    expect((await parseLogIn(Parse, wallet)).id).toBe('iRiS000001')
    const stored = await server.app.services.database.db
      .select({ text: sql<string>`${objects.data}::text` })
      .from(objects)
      .where(eq(objects.className, '_User'))
    expect(stored.map((row) => row.text).join()).not.toMatch(/\$2[aby]\$|password/i)
  })
})
