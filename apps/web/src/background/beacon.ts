import { sdkVersion, compareVersions } from '@portico/sdk/version'
import type { VersionNotice } from '../version/version.ts'

// What every page does in the background, loaded when the browser is first idle: page views and
// the SDK version check. These run for every visitor on every page, so this is a tiny fetch-based
// module rather than the SDK's backend client (the first load of `/` has an 80 KB budget, see
// docs/architecture.md): the wire formats are the SDK's (`trackEvent`, `getVersion`), with its client header.

const clientHeader = { 'x-portico-client': `sdk/${sdkVersion}` }

async function call(path: string, init: RequestInit = {}): Promise<Response> {
  const response = await fetch(path, {
    ...init,
    headers: { ...clientHeader, ...init.headers },
    credentials: 'same-origin',
  })
  if (!response.ok) throw new Error(`${init.method ?? 'GET'} ${path} answered ${response.status}`)
  return response
}

/** The page load's referring site, told with its first page view only (later ones are in-app). */
let referrerTold = false

/**
 * Where a page view came from and on what, as coarse as the audience figures need: the
 * referring site's host only (never its path), when it is another site; and the device class.
 */
export function pageViewContext(): { referrer?: string; device: string } {
  let referrer: string | undefined
  if (!referrerTold) {
    referrerTold = true
    try {
      const host = document.referrer ? new URL(document.referrer).hostname : ''
      if (host && host !== location.hostname) referrer = host
    } catch {
      // Not a URL (a browser's own page): counted as no referrer.
    }
  }
  const agent = navigator.userAgent
  // iPadOS asks for desktop sites (a Mac's user agent) but has a touch screen.
  const device =
    /iPad|Tablet|Android(?!.*Mobile)/.test(agent) ||
    (/Macintosh/.test(agent) && navigator.maxTouchPoints > 1)
      ? 'tablet'
      : /Mobi|iPhone|Android/.test(agent)
        ? 'mobile'
        : 'desktop'
  return { ...(referrer ? { referrer } : {}), device }
}

/**
 * Records an event like the SDK's `trackEvent` (`POST /api/events { subdomain, event, options }`,
 * the spec), the page's host as subdomain. `keepalive` lets it finish when the page is left. No
 * retries: a lost page view is not worth a retry loop on every page.
 */
export async function sendEvent(event: string, options: Record<string, unknown>): Promise<void> {
  const told = event === 'page_view' ? { ...options, ...pageViewContext() } : options
  await call('/api/events', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ subdomain: location.hostname, event, options: told }),
    keepalive: true,
  })
}

/**
 * Asks `GET /api/version` (as the SDK's `checkVersion` does) whether this SDK is the latest; the
 * notice to show, or null. A dismissed release stays quiet; below the minimum always shows.
 */
export async function checkForNotice(dismissed: string | null): Promise<VersionNotice | null> {
  const answer = (await (await call('/api/version')).json()) as {
    sdk: { latest: string; minimum: string }
  }
  const { latest, minimum } = answer.sdk
  if (compareVersions(sdkVersion, minimum) < 0)
    return { kind: 'unsupported', current: sdkVersion, latest }
  if (compareVersions(sdkVersion, latest) >= 0 || dismissed === latest) return null
  return { kind: 'outdated', current: sdkVersion, latest }
}
