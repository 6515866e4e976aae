import { createBackendClient } from '@portico/sdk/backend'
import { describe, expect, it } from 'vitest'
import { createProgressFetch, type XhrConstructor } from './progress-fetch.ts'

/** A stand-in for XMLHttpRequest that "uploads" in two steps and answers as told. */
function fakeXhr(answers: ({ status: number; body: string } | 'network-error')[]) {
  const sent: { method: string; url: string; headers: Record<string, string>; body: unknown }[] = []
  class FakeXhr {
    upload: { onprogress: ((event: ProgressEvent) => void) | null } = { onprogress: null }
    onload: (() => void) | null = null
    onerror: (() => void) | null = null
    onabort: (() => void) | null = null
    ontimeout: (() => void) | null = null
    withCredentials = false
    status = 0
    statusText = ''
    responseText = ''
    private request = {
      method: '',
      url: '',
      headers: {} as Record<string, string>,
      body: null as unknown,
    }
    open(method: string, url: string) {
      this.request.method = method
      this.request.url = url
    }
    setRequestHeader(name: string, value: string) {
      this.request.headers[name] = value
    }
    getAllResponseHeaders() {
      return 'content-type: application/json\r\nx-extra: 1\r\n'
    }
    abort() {
      this.onabort?.()
    }
    send(body: unknown) {
      sent.push({ ...this.request, body })
      const answer = answers.shift()!
      queueMicrotask(() => {
        if (answer === 'network-error') return this.onerror?.()
        for (const loaded of [5, 10])
          this.upload.onprogress?.({ lengthComputable: true, loaded, total: 10 } as ProgressEvent)
        this.status = answer.status
        this.responseText = answer.body
        this.onload?.()
      })
    }
  }
  return { Xhr: FakeXhr as unknown as XhrConstructor, sent }
}

describe('createProgressFetch', () => {
  it('reports progress and hands the answer to the SDK client', async () => {
    const { Xhr, sent } = fakeXhr([{ status: 201, body: '{"name":"a_b.png","url":"/f"}' }])
    const progress: number[] = []
    const client = createBackendClient({
      serverUrl: 'http://app.test',
      appId: 'test',
      fetch: createProgressFetch((loaded, total) => progress.push(loaded / total), Xhr),
    })
    const bytes = new Uint8Array(10)
    const answer = await client.request('POST', '/api/files/b.png', {
      body: bytes,
      contentType: 'image/png',
    })
    expect(answer).toEqual({ name: 'a_b.png', url: '/f' })
    expect(progress).toEqual([0.5, 1])
    expect(sent[0]!.method).toBe('POST')
    expect(sent[0]!.url).toBe('http://app.test/api/files/b.png')
    expect(sent[0]!.headers['content-type']).toBe('image/png')
    expect(sent[0]!.headers['idempotency-key']).toBeTruthy()
    expect(sent[0]!.body).toBe(bytes)
  })

  it('turns a network error into a retry with the same idempotency key', async () => {
    const { Xhr, sent } = fakeXhr(['network-error', { status: 201, body: '{"ok":true}' }])
    const client = createBackendClient({
      serverUrl: 'http://app.test',
      appId: 'test',
      sleep: async () => undefined,
      fetch: createProgressFetch(() => undefined, Xhr),
    })
    await expect(
      client.request('POST', '/api/files/x.png', { body: new Uint8Array(1) }),
    ).resolves.toEqual({ ok: true })
    expect(sent).toHaveLength(2)
    expect(sent[1]!.headers['idempotency-key']).toBe(sent[0]!.headers['idempotency-key'])
  })

  it('passes a server error on with its code', async () => {
    const { Xhr } = fakeXhr([
      { status: 413, body: '{"error":{"code":"body_too_large","message":"Too big"}}' },
    ])
    const client = createBackendClient({
      serverUrl: 'http://app.test',
      appId: 'test',
      fetch: createProgressFetch(() => undefined, Xhr),
    })
    await expect(
      client.request('POST', '/api/files/x.png', { body: new Uint8Array(1) }),
    ).rejects.toMatchObject({
      name: 'BackendError',
      status: 413,
      code: 'body_too_large',
      shortMessage: 'Too big',
    })
  })
})
