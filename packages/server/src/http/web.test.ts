import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import zlib from 'node:zlib'
import { afterAll, describe, expect, it } from 'vitest'
import { testApp } from '../../test/helpers.ts'

const webDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portico-web-'))
fs.mkdirSync(path.join(webDir, 'assets'))
fs.mkdirSync(path.join(webDir, 'about'))
fs.writeFileSync(
  path.join(webDir, 'index.html'),
  `<!doctype html><title>shell</title>${'<p>content</p>'.repeat(200)}`,
)
fs.writeFileSync(path.join(webDir, 'about', 'index.html'), '<!doctype html><title>about</title>')
fs.writeFileSync(path.join(webDir, 'assets', 'app-1a2b3c.js'), 'console.log(1)')
afterAll(() => fs.rmSync(webDir, { recursive: true, force: true }))

describe('serving the built web app', () => {
  it('serves hashed assets as immutable', async () => {
    const { app } = await testApp('pglite', { webDir })
    const res = await app.inject('/assets/app-1a2b3c.js')
    expect(res.statusCode).toBe(200)
    expect(res.headers['cache-control']).toContain('immutable')
  })

  it('answers client-side routes with the app shell, revalidated', async () => {
    const { app } = await testApp('pglite', { webDir })
    const res = await app.inject('/account/settings?tab=1')
    expect(res.statusCode).toBe(200)
    expect(res.body).toContain('<title>shell</title>')
    expect(res.headers['cache-control']).toBe('no-cache')
  })

  it('compresses the HTML it falls back to', async () => {
    const { app } = await testApp('pglite', { webDir })
    const res = await app.inject({ url: '/account', headers: { 'accept-encoding': 'gzip' } })
    expect(res.headers['content-encoding']).toBe('gzip')
    expect(zlib.gunzipSync(res.rawPayload).toString()).toContain('<title>shell</title>')
  })

  it('answers a pre-rendered page with its own HTML', async () => {
    const { app } = await testApp('pglite', { webDir })
    expect((await app.inject('/about')).body).toContain('<title>about</title>')
    expect((await app.inject('/../about/%2e%2e')).body).toContain('<title>shell</title>')
  })

  it('keeps unknown API paths and non-GET methods as JSON 404s', async () => {
    const { app } = await testApp('pglite', { webDir })
    const api = await app.inject('/api/unknown')
    expect(api.statusCode).toBe(404)
    expect(api.json().error.code).toBe('not_found')
    const post = await app.inject({ method: 'POST', url: '/somewhere' })
    expect(post.statusCode).toBe(404)
  })
})
