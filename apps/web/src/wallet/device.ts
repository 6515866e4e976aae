/** "Chrome on macOS": a session's browser and system from its User-Agent, for the sessions list. */
export function describeDevice(userAgent: string | null): string {
  if (!userAgent) return 'Unknown device'
  // Most specific first: Edge and Opera also say Chrome, and Chrome also says Safari.
  const browser =
    ['Edg', 'OPR', 'FxiOS', 'CriOS', 'Firefox', 'HeadlessChrome', 'Chrome', 'Safari'].find(
      (token) => new RegExp(`\\b${token}/[\\d.]+`).test(userAgent),
    ) ?? 'A browser'
  const names: Record<string, string> = {
    Edg: 'Edge',
    OPR: 'Opera',
    FxiOS: 'Firefox',
    CriOS: 'Chrome',
    HeadlessChrome: 'Chrome',
  }
  const system = /iPhone/.test(userAgent)
    ? 'iPhone'
    : /iPad/.test(userAgent)
      ? 'iPad'
      : /Android/.test(userAgent)
        ? 'Android'
        : /CrOS/.test(userAgent)
          ? 'ChromeOS'
          : /Mac OS X|Macintosh/.test(userAgent)
            ? 'macOS'
            : /Windows/.test(userAgent)
              ? 'Windows'
              : /Linux/.test(userAgent)
                ? 'Linux'
                : undefined
  const name = names[browser] ?? browser
  return system ? `${name} on ${system}` : name
}

/** No node answers for the chain: the site's server has none (the RPC gateway's 404 / 4901). */
export function isNoNode(error: unknown): boolean {
  let current = error as { status?: number; code?: number; cause?: unknown } | undefined
  for (let depth = 0; current && depth < 10; depth++) {
    if (current.status === 404 || current.code === 4901) return true
    current = current.cause as typeof current
  }
  return false
}
