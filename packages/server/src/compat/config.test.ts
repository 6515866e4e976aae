import type { FastifyInstance } from 'fastify'
import { getAddress } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { databaseKinds, signedIn, testApp, testConfig } from '../../test/helpers.ts'

// Parse Config as the console edits it: the mount keeps it in one `_GlobalConfig` object, which
// the console's object browser lists (once a client has read the config) and replaces; clients
// then read what the console wrote, without the parameters only the master key reads. No master
// key is set on this server: reading needs none.

const ADMIN = getAddress(`0x${'c3'.repeat(20)}`)

describe.each(databaseKinds())('Parse Config edited in the console on %s', (kind) => {
  let app: FastifyInstance
  let close: () => Promise<void>
  let admin: Record<string, string>

  beforeAll(async () => {
    const base = testConfig()
    ;({ app, close } = await testApp(kind, { app: { ...base.app, adminAddresses: [ADMIN] } }))
    admin = (await signedIn(app, ADMIN)).headers
  })
  afterAll(() => close())

  const mount = () => app.services.config.compat.mount
  const readConfig = async () => {
    const answer = await app.inject({
      method: 'GET',
      url: `${mount()}/config`,
      headers: { 'x-parse-application-id': app.services.config.app.appId },
    })
    expect(answer.statusCode).toBe(200)
    return answer.json() as { params: Record<string, unknown> }
  }

  it('lists the config after a first read, and clients read what the console wrote', async () => {
    expect(await readConfig()).toEqual({ params: {} })
    const overview = await app.inject({ url: '/api/admin/overview', headers: admin })
    expect(overview.json().classes).toContainEqual({ className: '_GlobalConfig', count: 1 })
    const listed = await app.inject({ url: '/api/admin/classes/_GlobalConfig', headers: admin })
    expect(listed.statusCode).toBe(200)
    expect(listed.json().results[0]).toMatchObject({
      objectId: '1',
      data: { params: {}, masterKeyOnly: {} },
    })

    const edited = await app.inject({
      method: 'PUT',
      url: '/api/admin/classes/_GlobalConfig/1',
      headers: admin,
      payload: {
        data: {
          params: { welcome: 'from the console', apiLimit: 3 },
          masterKeyOnly: { apiLimit: true },
        },
      },
    })
    expect(edited.statusCode).toBe(200)
    expect(await readConfig()).toEqual({ params: { welcome: 'from the console' } })

    // What the console stores by hand is read defensively.
    await app.inject({
      method: 'PUT',
      url: '/api/admin/classes/_GlobalConfig/1',
      headers: admin,
      payload: { data: { params: 'not an object', masterKeyOnly: [] } },
    })
    expect(await readConfig()).toEqual({ params: {} })
  })

  it('refuses a change without the master key, and the class through the class routes', async () => {
    const headers = { 'x-parse-application-id': app.services.config.app.appId }
    const put = await app.inject({
      method: 'PUT',
      url: `${mount()}/config`,
      headers,
      payload: { params: { welcome: 'defaced' } },
    })
    expect(put.json()).toMatchObject({ code: 119 })
    const viaClass = await app.inject({ url: `${mount()}/classes/_GlobalConfig`, headers })
    expect(viaClass.json()).toMatchObject({ code: 119 })
  })
})
