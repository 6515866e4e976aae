import { createRequire } from 'node:module'
import type { FastifyInstance } from 'fastify'
import { getAddress } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { freePort } from '@portico/test-kit/ports'
import { parseLogIn, parseSignOff, type ParseSdk } from '../../test/compat.ts'
import { databaseKinds, signedIn, testApp } from '../../test/helpers.ts'
import { loadConfig } from '../config/server.ts'

// Every change of an object made by the console or with the master key is in the audit log,
// naming who made it, whichever surface made it: the console's object routes, its bulk delete,
// the compatibility mount through the real `parse` client, and the file deletes of both. A
// user's own changes are not audited.

const require = createRequire(import.meta.url)
const Parse = require('parse/node') as ParseSdk

const ADMIN = getAddress(`0x${'c3'.repeat(20)}`)
const MASTER = 'master-key-for-the-audit-tests'
const MASTER_ACTOR = 'master key (127.0.0.1)'

describe.each(databaseKinds())('who changed an object, in the audit log, on %s', (kind) => {
  let app: FastifyInstance
  let close: () => Promise<void>
  let admin: Record<string, string>
  let member: Awaited<ReturnType<typeof signedIn>>
  beforeAll(async () => {
    const port = await freePort()
    ;({ app, close } = await testApp(kind, {
      app: { ...loadConfig({ PORT: String(port) }).app, adminAddresses: [ADMIN] },
      compat: {
        mount: '/server',
        legacySignIn: true,
        masterKey: MASTER,
        masterKeyIps: ['127.0.0.1/8', '::1/128'],
      },
    }))
    await app.listen({ host: '127.0.0.1', port })
    Parse.initialize('portico', undefined, MASTER)
    Parse.serverURL = `http://127.0.0.1:${port}/server`
    Parse.User.enableUnsafeCurrentUser()
    admin = (await signedIn(app, ADMIN)).headers
    member = await signedIn(app)
  })
  afterAll(async () => {
    await parseSignOff(Parse)
    await close()
  })

  const call = (
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    headers: Record<string, string>,
    payload?: object,
  ) => app.inject({ method, url, headers, payload })
  const entriesOf = async (target: string) =>
    (await app.services.audit.list({ limit: 100 }))
      .filter((entry) => entry.target === target)
      .map((entry) => [entry.actor, entry.action])
      .reverse()
  const made = async (title: string) => {
    const res = await call('POST', '/api/classes/Note', member.headers, { data: { title } })
    expect(res.statusCode).toBe(201)
    return res.json().objectId as string
  }

  it('names the console admin for a change, a delete and a bulk delete', async () => {
    const changed = await made('to change')
    const edited = await call('PUT', `/api/admin/classes/Note/${changed}`, admin, {
      data: { title: 'changed by the console' },
    })
    expect(edited.statusCode).toBe(200)
    expect((await call('DELETE', `/api/admin/classes/Note/${changed}`, admin)).statusCode).toBe(204)
    expect(await entriesOf(`Note/${changed}`)).toEqual([
      [ADMIN, 'object.update'],
      [ADMIN, 'object.delete'],
    ])
    const [entry] = (await app.services.audit.list({ limit: 2 })).filter(
      (e) => e.action === 'object.delete',
    )
    expect(entry?.before).toMatchObject({ data: { title: 'changed by the console' } })

    const bulk = [await made('bulk 1'), await made('bulk 2')]
    const deleted = await call('POST', '/api/admin/classes/Note/delete', admin, {
      ids: [...bulk, 'no-such-id'],
    })
    expect(deleted.json()).toEqual({ deleted: bulk, missing: ['no-such-id'] })
    for (const id of bulk) expect(await entriesOf(`Note/${id}`)).toEqual([[ADMIN, 'object.delete']])
    expect(await entriesOf('Note/no-such-id')).toEqual([])
  })

  it('names the master key for its saves and destroys through the parse SDK, and no one else', async () => {
    await parseLogIn(Parse, privateKeyToAccount(generatePrivateKey()))
    const Note = Parse.Object.extend('Note')
    const own = await new Note({ title: 'a user saves' }).save()
    own.set('title', 'the user changes it')
    await own.save()
    const master = await new Note({ title: 'the master key makes it' }).save(null, {
      useMasterKey: true,
    })
    master.set('title', 'the master key changes it')
    await master.save(null, { useMasterKey: true })
    own.set('title', 'the master key changes the user’s')
    await own.save(null, { useMasterKey: true })
    await master.destroy({ useMasterKey: true })
    await own.destroy()
    expect(await entriesOf(`Note/${master.id}`)).toEqual([
      [MASTER_ACTOR, 'object.create'],
      [MASTER_ACTOR, 'object.update'],
      [MASTER_ACTOR, 'object.delete'],
    ])
    // The user's own create, change and delete are not audited; the master key's change is.
    expect(await entriesOf(`Note/${own.id}`)).toEqual([[MASTER_ACTOR, 'object.update']])
    // A refused change leaves no entry.
    // Its creator alone may write it (without an ACL the mount makes it everyone's, as Parse).
    const other = new Note({ title: 'kept' })
    const acl = new Parse.ACL(Parse.User.current())
    acl.setPublicReadAccess(true)
    other.setACL(acl)
    await other.save()
    await parseLogIn(Parse, privateKeyToAccount(generatePrivateKey()))
    await expect(other.destroy()).rejects.toMatchObject({ code: 101 })
    expect(await entriesOf(`Note/${other.id}`)).toEqual([])
  })

  it('names who deleted a file, from the console and with the master key', async () => {
    const upload = async () => {
      const res = await app.inject({
        method: 'POST',
        url: '/api/files/note.txt',
        headers: { ...member.headers, 'content-type': 'text/plain' },
        payload: 'hi',
      })
      expect(res.statusCode).toBe(201)
      return res.json().name as string
    }
    const byConsole = await upload()
    expect((await call('DELETE', `/api/admin/files/${byConsole}`, admin)).statusCode).toBe(204)
    expect((await call('DELETE', `/api/admin/files/${byConsole}`, admin)).statusCode).toBe(404)
    expect(await entriesOf(`file/${byConsole}`)).toEqual([[ADMIN, 'file.delete']])
    const [entry] = await app.services.audit.list({ limit: 1 })
    expect(entry?.before).toEqual({ ownerId: member.user.id, contentType: 'text/plain', size: 2 })

    const byMaster = await upload()
    const file = Parse.File.fromJSON({
      __type: 'File',
      name: byMaster,
      url: `${Parse.serverURL}/files/portico/${byMaster}`,
    })
    await file.destroy({ useMasterKey: true })
    expect(await entriesOf(`file/${byMaster}`)).toEqual([[MASTER_ACTOR, 'file.delete']])
  })
})
