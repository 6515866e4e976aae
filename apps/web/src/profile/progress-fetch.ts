import type { BackendFetch } from '@portico/sdk/backend'

/** The part of `XMLHttpRequest` used here (injectable for tests). */
export type XhrConstructor = new () => Pick<
  XMLHttpRequest,
  | 'open'
  | 'send'
  | 'abort'
  | 'setRequestHeader'
  | 'getAllResponseHeaders'
  | 'upload'
  | 'onload'
  | 'onerror'
  | 'onabort'
  | 'ontimeout'
  | 'status'
  | 'statusText'
  | 'responseText'
  | 'withCredentials'
>

const NULL_BODY_STATUSES = new Set([101, 204, 205, 304])

function parseHeaders(raw: string): Headers {
  const headers = new Headers()
  for (const line of raw.trim().split(/[\r\n]+/)) {
    const at = line.indexOf(':')
    if (at > 0) headers.append(line.slice(0, at).trim(), line.slice(at + 1).trim())
  }
  return headers
}

/**
 * A `fetch` for the SDK's backend client that reports upload progress. `fetch` cannot (request
 * streams need HTTP/2 in Chromium), `XMLHttpRequest.upload` can; the SDK keeps its retries and
 * idempotency keys on top of it.
 *
 * @example
 * const client = createBackendClient({ serverUrl, appId, fetch: createProgressFetch((sent, total) => …) })
 */
export function createProgressFetch(
  onProgress: (sent: number, total: number) => void,
  Xhr: XhrConstructor = XMLHttpRequest,
): BackendFetch {
  return (url, init) =>
    new Promise<Response>((resolve, reject) => {
      const signal = init.signal
      if (signal?.aborted) return reject(signal.reason)
      const xhr = new Xhr()
      xhr.open(init.method ?? 'GET', url)
      xhr.withCredentials = init.credentials === 'include'
      new Headers(init.headers).forEach((value, name) => xhr.setRequestHeader(name, value))
      xhr.upload.onprogress = (event) => {
        if (event.lengthComputable) onProgress(event.loaded, event.total)
      }
      xhr.onload = () => {
        const body = NULL_BODY_STATUSES.has(xhr.status) ? null : xhr.responseText
        resolve(
          new Response(body, {
            status: xhr.status,
            statusText: xhr.statusText,
            headers: parseHeaders(xhr.getAllResponseHeaders()),
          }),
        )
      }
      // Same failure as fetch's, so the SDK treats it as a network error and retries.
      xhr.onerror = xhr.ontimeout = () => reject(new TypeError('Network request failed'))
      xhr.onabort = () => reject(signal?.reason ?? new DOMException('Aborted', 'AbortError'))
      signal?.addEventListener('abort', () => xhr.abort(), { once: true })
      xhr.send((init.body ?? null) as XMLHttpRequestBodyInit | null)
    })
}
