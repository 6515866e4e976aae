import { beforeAll, describe, expect, it } from 'vitest'
import type { FastifyInstance } from 'fastify'
import { databaseKinds, signedIn, testApp } from '../../test/helpers.ts'

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
)

describe.each(databaseKinds())('files on %s', (kind) => {
  let app: FastifyInstance
  let headers: Record<string, string>
  beforeAll(async () => {
    ;({ app } = await testApp(kind, { fileMaxBytes: 1024 }))
    ;({ headers } = await signedIn(app))
  })
  const upload = (name: string, type: string, payload: Buffer | string, who = headers) =>
    app.inject({
      method: 'POST',
      url: `/api/files/${name}`,
      headers: { ...who, 'content-type': type },
      payload,
    })

  it('stores a file and serves the same bytes as an inline, inert image', async () => {
    const res = await upload('dot.png', 'image/png', PNG)
    expect(res.statusCode).toBe(201)
    const { name, url } = res.json()
    expect(name).toMatch(/^[A-Za-z0-9_-]{16}_dot\.png$/)
    expect(url).toBe(`/api/files/${name}`)
    const got = await app.inject({ url })
    expect(got.statusCode).toBe(200)
    expect(got.rawPayload.equals(PNG)).toBe(true)
    expect(got.headers['content-type']).toBe('image/png')
    expect(got.headers['x-content-type-options']).toBe('nosniff')
    expect(got.headers['content-security-policy']).toBe("default-src 'none'; sandbox")
    expect(got.headers['content-disposition']).toBe('inline; filename="dot.png"')
  })

  it('serves text, JSON and SVG only as sandboxed downloads', async () => {
    const svg = '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'
    for (const [name, type, body] of [
      ['a.svg', 'image/svg+xml', svg],
      ['page.txt', 'text/plain', '<html><script>alert(1)</script></html>'],
      ['data.json', 'application/json', '{"a":1}'],
    ] as const) {
      const res = await upload(name, type, body)
      expect(res.statusCode, name).toBe(201)
      const got = await app.inject({ url: res.json().url })
      expect(got.body).toBe(body)
      expect(got.headers['content-disposition']).toBe(`attachment; filename="${name}"`)
      expect(got.headers['x-content-type-options']).toBe('nosniff')
      expect(got.headers['content-security-policy']).toBe("default-src 'none'; sandbox")
      expect(got.headers['content-type']).not.toMatch(/html/)
    }
  })

  it('sends a file as stored, with its exact length, even to a client that accepts gzip', async () => {
    const text = 'portico '.repeat(128) // 1024 bytes: the size from which answers are compressed
    const res = await upload('notes.txt', 'text/plain', text)
    const got = await app.inject({ url: res.json().url, headers: { 'accept-encoding': 'gzip' } })
    expect(got.statusCode).toBe(200)
    expect(got.headers['content-encoding']).toBeUndefined()
    expect(got.body).toBe(text)
    expect(Number(got.headers['content-length'])).toBe(Buffer.byteLength(text))
  })

  it('refuses HTML and other types off the allow-list', async () => {
    for (const type of [
      'text/html',
      'text/html; charset=utf-8',
      'application/xhtml+xml',
      'application/javascript',
    ]) {
      const res = await upload('x.html', type, '<script>alert(1)</script>')
      expect(res.statusCode, type).toBe(415)
      expect(res.json().error.code).toBe('unsupported_file_type')
    }
  })

  it('refuses a file over the size limit, an empty file, a bad name and anonymous uploads', async () => {
    const big = await upload('big.bin', 'application/octet-stream', Buffer.alloc(1025))
    expect(big.statusCode).toBe(413)
    expect(big.json().error.code).toBe('body_too_large')
    expect(
      (await upload('ok.bin', 'application/octet-stream', Buffer.alloc(1024))).statusCode,
    ).toBe(201)
    expect((await upload('empty.txt', 'text/plain', '')).statusCode).toBe(400)
    expect((await upload('..%2Fetc', 'text/plain', 'x')).statusCode).toBe(400)
    expect((await upload('a.txt', 'text/plain', 'x', {})).statusCode).toBe(401)
    expect((await app.inject({ url: '/api/files/AAAAAAAAAAAAAAAA_missing.txt' })).statusCode).toBe(
      404,
    )
  })

  it('refuses a body streamed past the limit with 413 and keeps the connection usable', async () => {
    const base = await app.listen({ host: '127.0.0.1', port: 0 })
    const chunks = [Buffer.alloc(600, 1), Buffer.alloc(600, 2)]
    const streamed = new ReadableStream<Uint8Array>({
      pull(controller) {
        const next = chunks.shift()
        if (next) controller.enqueue(next)
        else controller.close()
      },
    })
    const big = await fetch(`${base}/api/files/big.bin`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/octet-stream' },
      body: streamed,
      duplex: 'half',
    } as RequestInit)
    expect(big.status).toBe(413)
    expect(((await big.json()) as { error: { code: string } }).error.code).toBe('body_too_large')
    const next = await fetch(`${base}/api/files/next.txt`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'text/plain' },
      body: 'fine',
    })
    expect(next.status).toBe(201)
  })

  it('does not let file parsers leak into JSON routes', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/classes/Note',
      headers: { ...headers, 'content-type': 'application/json' },
      payload: JSON.stringify({ data: { a: 1 } }),
    })
    expect(res.statusCode).toBe(201)
  })
})
