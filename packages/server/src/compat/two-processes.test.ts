import { afterAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { databaseKinds, testDatabase } from '../../test/helpers.ts'
import { startServer, type ServerProcess } from '../../test/server-process.ts'

// Two real server processes on one PostgreSQL: a change made through one reaches live-query
// subscribers connected to the other (LISTEN/NOTIFY), filtered by their read access; a class's
// permissions changed through one are enforced by the other at once, not after its cache ages.

const postgres = databaseKinds().includes('postgres')

describe.runIf(postgres)('live queries across two processes on PostgreSQL', () => {
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
    const env = { DATABASE_URL: database.url!, MASTER_KEY: 'master-key-for-two-processes' }
    servers.push(startServer(env), startServer(env))
    const [one, two] = await Promise.all(servers.slice(-2).map((server) => server.url))
    const call = async (
      base: string,
      method: string,
      path: string,
      body?: unknown,
      master = false,
    ) => {
      const answer = await fetch(`${base}/server/${path}`, {
        method,
        headers: {
          'content-type': 'application/json',
          'x-parse-application-id': 'portico',
          ...(master ? { 'x-parse-master-key': env.MASTER_KEY } : {}),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      })
      return (await answer.json()) as { results?: unknown[]; code?: number }
    }
    await call(one!, 'POST', 'classes/Vault', { note: 'kept', ACL: { '*': { read: true } } }, true)
    // The other process reads the class while it is open, so it holds its permissions.
    expect((await call(two!, 'GET', 'classes/Vault')).results).toHaveLength(1)

    const closed = {
      find: {},
      get: {},
      count: {},
      create: {},
      update: {},
      delete: {},
      addField: {},
    }
    await call(one!, 'PUT', 'schemas/Vault', { classLevelPermissions: closed }, true)
    // Under the 5 s a process may keep a class's permissions: the change notice reached it.
    await expect
      .poll(async () => (await call(two!, 'GET', 'classes/Vault')).code, { timeout: 3_000 })
      .toBe(119)
    expect((await call(two!, 'GET', 'classes/Vault', undefined, true)).results).toHaveLength(1)
    await database.close()
  })
})
