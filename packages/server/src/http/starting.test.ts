import { afterAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { buildServer } from '../app.ts'
import { testConfig, testDatabase } from '../../test/helpers.ts'
import { listenWhileStarting } from './starting.ts'

describe('the port while the server starts', () => {
  it('answers health as starting and refuses the rest until the routes are ready, then serves them on the same port', async () => {
    const config = testConfig()
    const starting = await listenWhileStarting({
      host: '127.0.0.1',
      port: 0,
      timeouts: config.timeouts,
      database: 'pglite',
    })
    afterAll(() => new Promise((resolve) => starting.server.close(resolve)))
    const address = starting.server.address()
    const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`

    const health = await fetch(`${url}/api/health`)
    expect(health.status).toBe(200)
    expect(await health.json()).toMatchObject({ status: 'starting', database: 'pglite' })
    const refused = await fetch(`${url}/api/classes/Note`, { method: 'POST', body: '{}' })
    expect(refused.status).toBe(503)
    expect(refused.headers.get('retry-after')).toBe('1')
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe(
      'server_starting',
    )
    const socket = new WebSocket(`${url.replace('http', 'ws')}/api/live`)
    const status = await new Promise((resolve) => {
      socket.once('unexpected-response', (_request, response) => resolve(response.statusCode))
      socket.once('open', () => resolve('open'))
      socket.once('error', () => {})
    })
    expect(status).toBe(503)

    const database = await testDatabase('pglite')
    const app = await buildServer({ config, database, logger: false, server: starting })
    afterAll(async () => {
      await app.close()
      await database.close()
    })
    // Built but not ready: still starting.
    expect(await (await fetch(`${url}/api/health`)).json()).toMatchObject({ status: 'starting' })
    await app.ready()
    const ready = await fetch(`${url}/api/health`)
    expect(ready.status).toBe(200)
    expect(await ready.json()).toMatchObject({ status: 'ok', database: 'pglite' })
    expect((await fetch(`${url}/api/ready`)).status).toBe(200)
    const live = new WebSocket(`${url.replace('http', 'ws')}/api/live`)
    await new Promise((resolve, reject) => {
      live.once('open', resolve)
      live.once('error', reject)
    })
    live.close()
  })
})
