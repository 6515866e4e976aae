import { BaseError } from './base.ts'

/**
 * A URL in the configuration cannot work here: not http(s), or relative where there is no page
 * to resolve it against (Node). Thrown when the client is created, not on its first call.
 */
export class InvalidUrlError extends BaseError {
  override name = 'InvalidUrlError' as const
  /** The configuration field, e.g. `serverUrl` or `gatewayUrl`. */
  readonly setting: string
  readonly url: string
  constructor({ setting, url, example }: { setting: string; url: string; example: string }) {
    super(`Invalid ${setting} "${url}"`, {
      metaMessages: [
        `Use an absolute http(s) URL, such as ${example}. Relative URLs work only in a browser page.`,
      ],
    })
    this.setting = setting
    this.url = url
  }
}
export type InvalidUrlErrorType = InvalidUrlError & { name: 'InvalidUrlError' }

/**
 * `url` resolved against the page in a browser; it must then be http(s). Outside a browser it
 * must be absolute already.
 */
export function checkUrl(setting: string, url: string, example: string): void {
  const base = (globalThis as { location?: { href?: string } }).location?.href
  let parsed: URL
  try {
    parsed = new URL(url, base)
  } catch {
    throw new InvalidUrlError({ setting, url, example })
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new InvalidUrlError({ setting, url, example })
  }
}
