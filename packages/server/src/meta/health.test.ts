import { describe, expect, it } from 'vitest'
import { sql } from 'drizzle-orm'
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

describe.each(databaseKinds())('readiness on %s', (kind) => {
  it('is ready when the database answers and has every migration; not when one is undone', async () => {
    const { app, database } = await testApp(kind)
    const ready = await app.inject('/api/ready')
    expect(ready.statusCode).toBe(200)
    expect(ready.json()).toEqual({
      ready: true,
      database: 'reachable',
      pendingMigrations: 0,
      files: 'database',
    })

    // As if this build shipped a migration the database has not run yet.
    await database.db.execute(
      sql`delete from drizzle.__drizzle_migrations where id = (select max(id) from drizzle.__drizzle_migrations)`,
    )
    const behind = await app.inject('/api/ready')
    expect(behind.statusCode).toBe(503)
    expect(behind.json()).toEqual({
      ready: false,
      database: 'reachable',
      pendingMigrations: 1,
      files: 'database',
    })

    await database.close()
    const gone = await app.inject('/api/ready')
    expect(gone.statusCode).toBe(503)
    expect(gone.json()).toEqual({
      ready: false,
      database: 'unreachable',
      pendingMigrations: null,
      files: 'database',
    })
  })
})
