import { afterAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { databaseKinds, testDatabase, wellInsideAMinute } from '../../test/helpers.ts'
import { startServer, type ServerProcess } from '../../test/server-process.ts'

// Two real server processes on one PostgreSQL: a change made through one reaches live-query
// subscribers connected to the other (LISTEN/NOTIFY), filtered by their read access; a class's
// permissions changed through one are enforced by the other at once, not after its cache ages;
// a client's writes without a sign-in count against one budget, whichever process takes them.

const postgres = databaseKinds().includes('postgres')

describe.runIf(postgres)('two server processes on one PostgreSQL', () => {
  const servers: ServerProcess[] = []
  afterAll(async () => {
    for (const server of servers) server.child.kill()
    await Promise.all(servers.map((server) => server.exited))
  })

  async function post(base: string, path: string, body: Record<string, unknown>) {
    const answer = await fetch(`${base}/server/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: JSON.stringify({ _ApplicationId: 'portico', ...body }),
    })
    return (await answer.json()) as Record<string, unknown>
  }

  const MASTER_KEY = 'master-key-for-two-processes'
  /** A REST call on the mount, with the master key when `master`; its status and body. */
  async function rest(base: string, method: string, path: string, body?: unknown, master = false) {
    const answer = await fetch(`${base}/server/${path}`, {
      method,
      headers: {
        'content-type': 'application/json',
        'x-parse-application-id': 'portico',
        ...(master ? { 'x-parse-master-key': MASTER_KEY } : {}),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    })
    const json = (await answer.json()) as { results?: unknown[]; count?: number; code?: number }
    return { status: answer.status, ...json }
  }

  it('delivers a create made on one process to a subscriber on the other', async () => {
    const database = await testDatabase('postgres')
    const env = { DATABASE_URL: database.url! }
    servers.push(startServer(env), startServer(env))
    const [one, two] = await Promise.all(servers.map((server) => server.url))

    const account = privateKeyToAccount(generatePrivateKey())
    const { result } = (await post(one!, 'functions/getServerTime', {})) as {
      result: { dateTime: string }
    }
    const data = `Hello\n\nId: portico:${result.dateTime}`
    const user = await post(one!, 'users', {
      authData: {
        moralisEth: {
          id: account.address,
          signature: await account.signMessage({ message: data }),
          data,
        },
      },
    })
    const token = user.sessionToken as string
    expect(token).toMatch(/^r:/)

    const socket = new WebSocket(`${two!.replace('http', 'ws')}/server`)
    const messages: { op: string; object?: { note?: string } }[] = []
    socket.on('message', (raw) => messages.push(JSON.parse(String(raw)) as never))
    await new Promise((resolve) => socket.once('open', resolve))
    // Anonymous: sees public objects only.
    socket.send(JSON.stringify({ op: 'connect', applicationId: 'portico' }))
    socket.send(
      JSON.stringify({ op: 'subscribe', requestId: 7, query: { className: 'Wall', where: {} } }),
    )
    await expect.poll(() => messages.map((m) => m.op)).toEqual(['connected', 'subscribed'])

    const mine = { [String(user.objectId)]: { read: true, write: true } }
    await post(one!, 'classes/Wall', { note: 'private', ACL: mine, _SessionToken: token })
    await post(one!, 'classes/Wall', { note: 'public', _SessionToken: token })
    await expect
      .poll(() => messages.map((m) => m.op), { timeout: 10_000 })
      .toEqual(['connected', 'subscribed', 'create'])
    expect(messages[2]!.object!.note).toBe('public')
    socket.close()
    await database.close()
  })

  it('enforces class-level permissions set through one process on the other within its cache time', async () => {
    const database = await testDatabase('postgres')
    const env = { DATABASE_URL: database.url!, MASTER_KEY }
    servers.push(startServer(env), startServer(env))
    const [one, two] = await Promise.all(servers.slice(-2).map((server) => server.url))
    await rest(one!, 'POST', 'classes/Vault', { note: 'kept', ACL: { '*': { read: true } } }, true)
    // The other process reads the class while it is open, so it holds its permissions.
    expect((await rest(two!, 'GET', 'classes/Vault')).results).toHaveLength(1)

    const closed = {
      find: {},
      get: {},
      count: {},
      create: {},
      update: {},
      delete: {},
      addField: {},
    }
    await rest(one!, 'PUT', 'schemas/Vault', { classLevelPermissions: closed }, true)
    // Under the 5 s a process may keep a class's permissions: the change notice reached it.
    await expect
      .poll(async () => (await rest(two!, 'GET', 'classes/Vault')).code, { timeout: 3_000 })
      .toBe(119)
    expect((await rest(two!, 'GET', 'classes/Vault', undefined, true)).results).toHaveLength(1)
    await database.close()
  })

  it('counts the writes of a client that is not signed in against one budget on both processes', async () => {
    const database = await testDatabase('postgres')
    const env = { DATABASE_URL: database.url!, MASTER_KEY, SIGNED_OUT_WRITE_RATE_LIMIT: '3' }
    servers.push(startServer(env), startServer(env))
    const [one, two] = await Promise.all(servers.slice(-2).map((server) => server.url))
    const open = { '*': true }
    const permissions = { find: open, get: open, count: open, create: open, update: open }
    const schema = {
      className: 'Guestbook',
      fields: { line: { type: 'String' } },
      classLevelPermissions: permissions,
    }
    expect((await rest(one!, 'POST', 'schemas/Guestbook', schema, true)).status).toBe(200)

    await wellInsideAMinute()
    const answers = []
    for (const base of [one!, two!, one!, two!, one!])
      answers.push(await rest(base, 'POST', 'classes/Guestbook', { line: 'hello' }))
    expect(answers.map((answer) => answer.status)).toEqual([201, 201, 201, 429, 429])
    expect(answers[3]!.code).toBe(100)
    const stored = await rest(two!, 'GET', 'classes/Guestbook?count=1&limit=0', undefined, true)
    expect(stored.count).toBe(3)
    // The master key is never counted.
    expect((await rest(two!, 'POST', 'classes/Guestbook', { line: 'kept' }, true)).status).toBe(201)
    await database.close()
  })
})
