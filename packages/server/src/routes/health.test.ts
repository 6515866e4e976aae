import { describe, expect, it } from 'vitest'
import { databaseKinds, testApp } from '../../test/helpers.ts'

describe.each(databaseKinds())('health and routing on %s', (kind) => {
  it('reports status, version and the database kind', async () => {
    const { app } = await testApp(kind)
    const res = await app.inject('/api/health')
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({
      status: 'ok',
      version: expect.stringMatching(/^\d+\.\d+\.\d+/),
      database: kind,
    })
  })

  it('answers unknown /api paths with a JSON 404', async () => {
    const { app } = await testApp(kind)
    const res = await app.inject('/api/nothing-here?x=1')
    expect(res.statusCode).toBe(404)
    expect(res.json()).toEqual({
      error: { code: 'not_found', message: 'No route for GET /api/nothing-here.' },
    })
  })

  it('reports degraded when the database is gone', async () => {
    const { app, database } = await testApp(kind)
    await database.close()
    const res = await app.inject('/api/health')
    expect(res.statusCode).toBe(503)
    expect(res.json().status).toBe('degraded')
  })
})
