import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import zlib from 'node:zlib'
import { afterAll, describe, expect, it } from 'vitest'
import { testApp, testConfig } from '../../test/helpers.ts'

const webDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portico-web-'))
fs.mkdirSync(path.join(webDir, 'assets'))
fs.mkdirSync(path.join(webDir, '_pages'))
fs.writeFileSync(
  path.join(webDir, 'index.html'),
  `<!doctype html><title>shell</title>${'<p>content</p>'.repeat(200)}`,
)
const shell = (title: string) => `<!doctype html><title>${title}</title>${'<p>.</p>'.repeat(200)}`
fs.writeFileSync(path.join(webDir, '_pages', 'account.html'), shell('account'))
fs.writeFileSync(path.join(webDir, '_pages', 'u-address.html'), shell('wallet'))
fs.writeFileSync(path.join(webDir, '_pages', 'not-found.html'), shell('not found'))
fs.writeFileSync(
  path.join(webDir, 'routes.json'),
  JSON.stringify([
    { path: '/', file: 'index.html', status: 200, index: true },
    { path: '/account', file: '_pages/account.html', status: 200, index: false, crawl: true },
    { path: '/admin', file: '_pages/account.html', status: 200, index: false, crawl: false },
    { path: '/u/:address', file: '_pages/u-address.html', status: 200, index: false },
    {
      path: '/n/:id',
      file: '_pages/u-address.html',
      status: 200,
      index: false,
      params: { id: '[0-9]+' },
    },
    { path: '*', file: '_pages/not-found.html', status: 404, index: false },
  ]),
)
fs.writeFileSync(path.join(webDir, 'assets', 'app-1a2b3c.js'), 'console.log(1)')
// A build without a page table (routes.json): every path gets the app shell.
const plainDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portico-web-plain-'))
fs.writeFileSync(path.join(plainDir, 'index.html'), '<!doctype html><title>plain</title>')
afterAll(() => {
  fs.rmSync(webDir, { recursive: true, force: true })
  fs.rmSync(plainDir, { recursive: true, force: true })
})

describe('serving the built web app', () => {
  it('serves hashed assets as immutable', async () => {
    const { app } = await testApp('pglite', { webDir })
    const res = await app.inject('/assets/app-1a2b3c.js')
    expect(res.statusCode).toBe(200)
    expect(res.headers['cache-control']).toContain('immutable')
  })

  it('answers each page of the page table with its own HTML, revalidated, and 404 for others', async () => {
    const { app } = await testApp('pglite', { webDir })
    const get = async (url: string) => {
      const res = await app.inject(url)
      return [res.statusCode, /<title>([^<]*)</.exec(res.body)?.[1], res.headers['cache-control']]
    }
    expect(await get('/')).toEqual([200, 'shell', 'no-cache'])
    expect(await get('/account?tab=1')).toEqual([200, 'account', 'no-cache'])
    expect(await get('/account/')).toEqual([200, 'account', 'no-cache'])
    expect(await get('/u/0xAbC')).toEqual([200, 'wallet', 'no-cache'])
    expect(await get('/u/0xAbC/more')).toEqual([404, 'not found', 'no-cache'])
    expect(await get('/account/settings')).toEqual([404, 'not found', 'no-cache'])
    // A parameter that breaks its page's rule is no page (the app shows Not found too).
    expect(await get('/n/42')).toEqual([200, 'wallet', 'no-cache'])
    expect(await get('/n/42x')).toEqual([404, 'not found', 'no-cache'])
    expect(await get('/robots.txt.bak')).toEqual([404, 'not found', 'no-cache'])
  })

  it('compresses the HTML', async () => {
    const { app } = await testApp('pglite', { webDir })
    const res = await app.inject({ url: '/account', headers: { 'accept-encoding': 'gzip' } })
    expect(res.headers['content-encoding']).toBe('gzip')
    expect(zlib.gunzipSync(res.rawPayload).toString()).toContain('<title>account</title>')
  })

  it('writes robots.txt and sitemap.xml from the page table, with the public origin', async () => {
    const base = testConfig()
    const { app } = await testApp('pglite', {
      webDir,
      app: { ...base.app, publicOrigins: ['https://app.example.org'] },
    })
    const robots = await app.inject('/robots.txt')
    expect(robots.headers['content-type']).toMatch(/^text\/plain/)
    expect(robots.body).toBe(
      'User-agent: *\nAllow: /\nDisallow: /api/\nDisallow: /admin\nSitemap: https://app.example.org/sitemap.xml\n',
    )
    const sitemap = await app.inject('/sitemap.xml')
    expect(sitemap.headers['content-type']).toMatch(/^application\/xml/)
    expect(sitemap.body).toContain('<loc>https://app.example.org/</loc>')
    expect(sitemap.body).not.toContain('/account')
    expect(sitemap.body).not.toContain('/admin')
    expect(sitemap.body).not.toContain(':address')
  })

  it('without a page table every path gets the app shell', async () => {
    const { app } = await testApp('pglite', { webDir: plainDir })
    const res = await app.inject('/anything/at/all')
    expect(res.statusCode).toBe(200)
    expect(res.body).toContain('<title>plain</title>')
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
