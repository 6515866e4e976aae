import type { BackendClient } from '../backend/client.ts'

export interface TrackEventParameters {
  /** Event name, 1-100 printable characters, e.g. `page_view`. */
  event: string
  /** Free-form details: a JSON object of at most 50 keys and 4 KB. */
  options?: Record<string, unknown> | undefined
  /** Host name to file the event under; by default the page's `location.hostname`. */
  subdomain?: string | undefined
}

/**
 * Records an event on the server (`POST /api/events`). Tracking must never break the app: this
 * never throws and never rejects; it resolves to whether the server stored the event.
 *
 * @example
 * void trackEvent(client, { event: 'page_view', options: { path: location.pathname } })
 */
export async function trackEvent(
  client: BackendClient,
  parameters: TrackEventParameters,
): Promise<boolean> {
  try {
    const subdomain = parameters.subdomain ?? pageHostname()
    await client.request('POST', '/api/events', {
      body: { subdomain, event: parameters.event, options: parameters.options ?? {} },
      idempotent: false,
    })
    return true
  } catch {
    return false
  }
}

/** `location.hostname` in a browser, '' elsewhere (read when called, never at import). */
function pageHostname(): string {
  const { location } = globalThis as { location?: { hostname?: unknown } }
  return typeof location?.hostname === 'string' ? location.hostname : ''
}
