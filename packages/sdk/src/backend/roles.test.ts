import { afterEach, describe, expect, it } from 'vitest'
import { startFlakyServer, type FlakyServer } from '@portico/test-kit/flaky-server'
import { BackendError } from '../errors/backend.ts'
import { createBackendClient } from './client.ts'
import {
  addToRole,
  createRole,
  deleteRole,
  getRole,
  listRoles,
  removeFromRole,
  updateRole,
} from './roles.ts'

// The SDK's role requests against a scripted server; the same functions run against the real
// server on PGlite and PostgreSQL in packages/server/src/roles/sdk.test.ts.

let server: FlakyServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

const wire = {
  objectId: 'r1',
  name: 'Night Staff',
  owner: 'u1',
  acl: { '*': { read: true }, u1: { read: true, write: true } },
  createdAt: '2024-01-01T00:00:00.000Z',
  updatedAt: '2024-01-02T00:00:00.000Z',
  userCount: 1,
  roleCount: 1,
  users: ['u2'],
  roles: [{ objectId: 'r2', name: 'Crew' }],
  parentRoles: [],
}

describe('roles', () => {
  it('sends each call to its route, the name escaped, and answers dates as Dates', async () => {
    server = await startFlakyServer()
    server.answer = (request) =>
      request.method === 'DELETE'
        ? { status: 204, body: undefined }
        : request.method === 'GET' && request.path.startsWith('/api/roles?')
          ? { status: 200, body: { results: [wire], count: 1 } }
          : { status: request.method === 'POST' ? 201 : 200, body: wire }
    const client = createBackendClient({ serverUrl: server.url, appId: 'a' })
    const created = await createRole(client, {
      name: 'Night Staff',
      users: ['0x' + 'ab'.repeat(20)],
      roles: ['Crew'],
    })
    expect(created.createdAt).toEqual(new Date('2024-01-01T00:00:00Z'))
    expect(created).toMatchObject({ users: ['u2'], roles: [{ name: 'Crew' }], userCount: 1 })
    const listed = await listRoles(client, { limit: 10 })
    expect(listed.count).toBe(1)
    expect(listed.results[0]!.updatedAt).toEqual(new Date('2024-01-02T00:00:00Z'))
    expect(listed.results[0]).not.toHaveProperty('users')
    await getRole(client, 'Night Staff')
    await addToRole(client, 'Night Staff', { users: ['u3'] })
    await removeFromRole(client, 'Night Staff', { roles: ['Crew'] })
    await updateRole(client, 'Night Staff', { acl: { u1: { read: true, write: true } } })
    await deleteRole(client, 'Night Staff')
    expect(server.seen.map((s) => `${s.method} ${s.path}`)).toEqual([
      'POST /api/roles',
      'GET /api/roles?limit=10',
      'GET /api/roles/Night%20Staff',
      'PUT /api/roles/Night%20Staff',
      'PUT /api/roles/Night%20Staff',
      'PUT /api/roles/Night%20Staff',
      'DELETE /api/roles/Night%20Staff',
    ])
    expect(server.seen.map((s) => (s.body ? JSON.parse(s.body) : undefined))).toEqual([
      { name: 'Night Staff', users: ['0x' + 'ab'.repeat(20)], roles: ['Crew'] },
      undefined,
      undefined,
      { add: { users: ['u3'] } },
      { remove: { roles: ['Crew'] } },
      { acl: { u1: { read: true, write: true } } },
      undefined,
    ])
  })

  it("gives the server's refusal as a BackendError with its code", async () => {
    server = await startFlakyServer()
    server.answer = () => ({
      status: 409,
      body: { error: { code: 'role_name_taken', message: 'A role named "Crew" already exists' } },
    })
    const client = createBackendClient({ serverUrl: server.url, appId: 'a' })
    const error = await createRole(client, { name: 'Crew' }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(BackendError)
    expect(error).toMatchObject({ status: 409, code: 'role_name_taken' })
  })
})
